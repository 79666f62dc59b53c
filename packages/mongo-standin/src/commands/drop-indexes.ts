import { isPlainObject } from '../bson-values.ts';
import { indexNotFound, invalidOptions, namespaceNotFound, typeMismatch } from '../errors.ts';
import { ID_INDEX_SPEC } from '../engine/index-spec.ts';
import { targetCollection, type DatabaseCommand } from './command.ts';

export const dropIndexes: DatabaseCommand = {
  names: ['dropIndexes', 'deleteIndexes'],
  scope: 'database',
  writes: true,
  run({ body }, database, { cursors }) {
    const name = targetCollection(body);
    const collection = database.collection(name);
    if (!collection) throw namespaceNotFound(`ns not found ${database.name}.${name}`);
    const nIndexesWas = collection.indexSpecs.length;
    const target = body.index;
    let names: string[];
    if (target === '*') {
      names = collection.indexSpecs.map((spec) => spec.name).filter((n) => n !== ID_INDEX_SPEC.name);
    } else if (typeof target === 'string') {
      names = [target];
    } else if (Array.isArray(target) && target.every((n) => typeof n === 'string')) {
      names = target;
    } else if (isPlainObject(target)) {
      const spec = collection.findIndex((s) => JSON.stringify(s.key) === JSON.stringify(target));
      if (!spec) throw indexNotFound(`can't find index with key: ${JSON.stringify(target)}`);
      names = [spec.name];
    } else {
      throw typeMismatch("Field 'index' must be a string, an array of strings or an index key pattern");
    }
    if (names.includes(ID_INDEX_SPEC.name)) throw invalidOptions('cannot drop _id index');
    for (const index of names)
      if (!collection.hasIndex(index)) throw indexNotFound(`index not found with name [${index}]`);
    // The collection's cursors may walk a dropped index (MongoDB ends those; the stand-in ends them all).
    cursors.killReading(`${database.name}.${name}`);
    for (const index of names) collection.dropIndex(index);
    return { nIndexesWas, ok: 1 };
  },
};
