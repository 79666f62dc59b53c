import { targetCollection, type DatabaseCommand } from './command.ts';
import { storageScale } from './storage-scale.ts';

/**
 * Storage statistics of a collection, as MongoDB's collStats: `size` is the documents' BSON bytes,
 * `storageSize` the bytes of its documents' tables, the index sizes those of its indexes' (estimated:
 * `Storage.indexBytes`). A collection that does not exist
 * answers zeros, as MongoDB does since 4.2.
 */
export const collStats: DatabaseCommand = {
  names: ['collStats'],
  scope: 'database',
  run({ body }, database) {
    const name = targetCollection(body);
    const scaled = storageScale(body);
    const collection = database.collection(name);
    const count = collection?.size ?? 0;
    const size = collection?.entry.dataSize ?? 0;
    const storageSize = collection?.storageSize ?? 0;
    const indexSizes = collection?.indexSizes() ?? {};
    const totalIndexSize = Object.values(indexSizes).reduce((sum, bytes) => sum + bytes, 0);
    return {
      ns: `${database.name}.${name}`,
      size: scaled(size),
      count,
      ...(count > 0 ? { avgObjSize: Math.floor(size / count) } : {}),
      storageSize: scaled(storageSize),
      capped: false,
      nindexes: Object.keys(indexSizes).length,
      totalIndexSize: scaled(totalIndexSize),
      indexSizes: Object.fromEntries(
        Object.entries(indexSizes).map(([index, bytes]) => [index, scaled(bytes)]),
      ),
      totalSize: scaled(storageSize + totalIndexSize),
      scaleFactor: Number(body.scale ?? 1),
      ok: 1,
    };
  },
};
