import { targetCollection, type DatabaseCommand } from './command.ts';

/** Fields of the command document that are not collection options. */
const GENERIC_FIELDS = new Set([
  'create',
  '$db',
  'lsid',
  '$clusterTime',
  '$readPreference',
  'writeConcern',
  'comment',
]);

export const create: DatabaseCommand = {
  names: ['create'],
  scope: 'database',
  writes: true,
  run({ body }, database) {
    const options = Object.fromEntries(Object.entries(body).filter(([field]) => !GENERIC_FIELDS.has(field)));
    database.createCollection(targetCollection(body), options);
    return { ok: 1 };
  },
};
