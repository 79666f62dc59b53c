import type { Document } from 'bson';
import type { Logger } from 'pino';
import type { CommandMetrics } from '../command-metrics.ts';
import type { CursorRegistry } from '../cursors.ts';
import type { Database } from '../engine/database.ts';
import type { Engine } from '../engine/engine.ts';
import { invalidNamespace, typeMismatch } from '../errors.ts';

/** What a command can reach while it runs. */
export interface CommandContext {
  engine: Engine;
  cursors: CursorRegistry;
  logger: Logger;
  connectionId: number;
  /** When the server started (serverStatus uptime). */
  startedAt: number;
  /** Counts of the commands run (serverStatus metrics). */
  commandMetrics: CommandMetrics;
}

export interface CommandRequest {
  /** The command document, document sequences merged in. */
  body: Document;
  /** `$db`: the database the command targets. */
  databaseName: string;
}

interface CommandBase {
  /** The command's name as the first key of the body; aliases follow. */
  readonly names: readonly string[];
}

/** Runs without a database lock (handshakes, cursors, server information). */
export interface ServerCommand extends CommandBase {
  readonly scope: 'server';
  run(request: CommandRequest, context: CommandContext): Promise<Document> | Document;
}

/** Runs against a database, on what is committed. */
export interface ReadingCommand extends CommandBase {
  readonly scope: 'database';
  readonly writes?: undefined;
  run(request: CommandRequest, database: Database, context: CommandContext): Promise<Document> | Document;
}

/**
 * Changes a database: runs in one storage transaction (synchronously, so that no other command runs in
 * between), and is answered once its changes are on disk.
 */
export interface WritingCommand extends CommandBase {
  readonly scope: 'database';
  readonly writes: true;
  run(request: CommandRequest, database: Database, context: CommandContext): Document;
}

export type DatabaseCommand = ReadingCommand | WritingCommand;

export type Command = ServerCommand | DatabaseCommand;

/** The collection named by the command's first field (`{find: "users"}`). */
export function targetCollection(body: Document): string {
  const name = Object.values(body)[0];
  if (typeof name !== 'string' || name === '')
    throw invalidNamespace(`collection name has invalid type ${name === null ? 'null' : typeof name}`);
  return name;
}

/** A non-negative integer option (skip, limit, batchSize...), as a number. */
export function integerOption(body: Document, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw typeMismatch(`Field '${field}' should be a number`);
  return Math.trunc(n);
}
