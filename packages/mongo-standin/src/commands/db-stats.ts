import { statfs } from 'node:fs/promises';
import type { DatabaseCommand } from './command.ts';
import { storageScale } from './storage-scale.ts';

/**
 * Storage statistics of a database, as MongoDB's dbStats: `dataSize` is its documents' BSON bytes,
 * `storageSize` and `indexSize` the bytes of its documents' and indexes' tables (the latter estimated:
 * `Storage.indexBytes`), `fsUsedSize`/`fsTotalSize` those of the
 * file system holding the data directory.
 */
export const dbStats: DatabaseCommand = {
  names: ['dbStats'],
  scope: 'database',
  async run({ body }, database) {
    const scaled = storageScale(body);
    let objects = 0;
    let dataSize = 0;
    let storageSize = 0;
    let indexSize = 0;
    let indexes = 0;
    for (const name of database.collectionNames()) {
      const collection = database.collection(name)!;
      objects += collection.size;
      dataSize += collection.entry.dataSize;
      storageSize += collection.storageSize;
      const sizes = Object.values(collection.indexSizes());
      indexes += sizes.length;
      indexSize += sizes.reduce((sum, bytes) => sum + bytes, 0);
    }
    const fs = await statfs(database.storage.dataDir);
    return {
      db: database.name,
      collections: database.collectionNames().length,
      views: 0,
      objects,
      avgObjSize: objects > 0 ? dataSize / objects : 0,
      dataSize: scaled(dataSize),
      storageSize: scaled(storageSize),
      indexes,
      indexSize: scaled(indexSize),
      totalSize: scaled(storageSize + indexSize),
      scaleFactor: Number(body.scale ?? 1),
      fsUsedSize: scaled((fs.blocks - fs.bfree) * fs.bsize),
      fsTotalSize: scaled(fs.blocks * fs.bsize),
      ok: 1,
    };
  },
};
