import { Long } from 'bson';
import { typeMismatch } from '../errors.ts';
import type { ServerCommand } from './command.ts';

export const killCursors: ServerCommand = {
  names: ['killCursors'],
  scope: 'server',
  run({ body }, { cursors }) {
    const ids = body.cursors;
    if (!Array.isArray(ids) || !ids.every((id) => id instanceof Long))
      throw typeMismatch("Field 'cursors' must be an array of longs");
    const { killed, notFound } = cursors.kill(ids.map((id: Long) => id.toBigInt()));
    return {
      cursorsKilled: killed.map((id) => Long.fromBigInt(id)),
      cursorsNotFound: notFound.map((id) => Long.fromBigInt(id)),
      cursorsAlive: [],
      cursorsUnknown: [],
      ok: 1,
    };
  },
};
