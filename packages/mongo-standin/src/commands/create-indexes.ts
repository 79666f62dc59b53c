import { isPlainObject } from '../bson-values.ts';
import { indexKeySpecsConflict, indexOptionsConflict, typeMismatch } from '../errors.ts';
import { parseIndexSpec, sameIndexOptions } from '../engine/index-spec.ts';
import { targetCollection, type DatabaseCommand } from './command.ts';

export const createIndexes: DatabaseCommand = {
  names: ['createIndexes'],
  scope: 'database',
  writes: true,
  run({ body }, database) {
    if (!Array.isArray(body.indexes) || body.indexes.length === 0)
      throw typeMismatch("Field 'indexes' must be a non-empty array");
    const specs = body.indexes.map((raw: unknown) => {
      if (!isPlainObject(raw)) throw typeMismatch('index specification must be an object');
      return parseIndexSpec(raw);
    });
    const name = targetCollection(body);
    const createdCollectionAutomatically = !database.collection(name);
    const collection = database.ensureCollection(name);
    const numIndexesBefore = collection.indexSpecs.length;
    for (const spec of specs) {
      const sameName = collection.findIndex((existing) => existing.name === spec.name);
      if (sameName) {
        if (sameIndexOptions(sameName, spec)) continue;
        throw JSON.stringify(sameName.key) === JSON.stringify(spec.key)
          ? indexOptionsConflict(
              `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`,
            )
          : indexKeySpecsConflict(
              `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`,
            );
      }
      const sameKey = collection.findIndex((existing) => sameIndexOptions(existing, spec));
      if (sameKey) throw indexOptionsConflict(`Index already exists with a different name: ${sameKey.name}`);
      collection.createIndex(spec);
    }
    const numIndexesAfter = collection.indexSpecs.length;
    return {
      numIndexesBefore,
      numIndexesAfter,
      createdCollectionAutomatically,
      ...(numIndexesAfter === numIndexesBefore ? { note: 'all indexes already exist' } : {}),
      ok: 1,
    };
  },
};
