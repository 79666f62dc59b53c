import { targetCollection, type DatabaseCommand } from './command.ts';

/** Dropping a collection that does not exist succeeds, as on MongoDB 7.0 and later. */
export const drop: DatabaseCommand = {
  names: ['drop'],
  scope: 'database',
  writes: true,
  run({ body }, database, { cursors }) {
    const name = targetCollection(body);
    const nIndexesWas = database.collection(name)?.indexSpecs.length;
    cursors.killReading(`${database.name}.${name}`);
    if (!database.dropCollection(name)) return { ok: 1 };
    return { nIndexesWas, ns: `${database.name}.${name}`, ok: 1 };
  },
};
