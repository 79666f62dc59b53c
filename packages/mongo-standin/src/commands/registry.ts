import { aggregate } from './aggregate.ts';
import { buildInfo } from './build-info.ts';
import { getCmdLineOpts } from './get-cmd-line-opts.ts';
import type { Command } from './command.ts';
import { collStats } from './coll-stats.ts';
import { count } from './count.ts';
import { create } from './create.ts';
import { createIndexes } from './create-indexes.ts';
import { dbStats } from './db-stats.ts';
import { deleteCommand } from './delete.ts';
import { distinct } from './distinct.ts';
import { drop } from './drop.ts';
import { dropDatabase } from './drop-database.ts';
import { dropIndexes } from './drop-indexes.ts';
import { endSessions } from './end-sessions.ts';
import { explain } from './explain.ts';
import { find } from './find.ts';
import { findAndModify } from './find-and-modify.ts';
import { getMore } from './get-more.ts';
import { hello } from './hello.ts';
import { insert } from './insert.ts';
import { killCursors } from './kill-cursors.ts';
import { listCollections } from './list-collections.ts';
import { listDatabases } from './list-databases.ts';
import { listIndexes } from './list-indexes.ts';
import { ping } from './ping.ts';
import { serverStatus } from './server-status.ts';
import { update } from './update.ts';

const COMMANDS: Command[] = [
  aggregate,
  buildInfo,
  collStats,
  count,
  create,
  createIndexes,
  dbStats,
  deleteCommand,
  distinct,
  drop,
  dropDatabase,
  dropIndexes,
  endSessions,
  explain,
  find,
  findAndModify,
  getCmdLineOpts,
  getMore,
  hello,
  insert,
  killCursors,
  listCollections,
  listDatabases,
  listIndexes,
  ping,
  serverStatus,
  update,
];

const BY_NAME = new Map<string, Command>(
  COMMANDS.flatMap((command) => command.names.map((name) => [name, command])),
);

/** The command of this name (its own, or one of its aliases), if the stand-in knows one. */
export const findCommand = (name: string): Command | undefined => BY_NAME.get(name);
