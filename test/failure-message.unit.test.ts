import { MongoNetworkError, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.ts';
import { failureMessage } from '../src/failure-message.ts';
import { ImportLeaseLost } from '../src/ingest/import-lease.ts';
import { DataDirInUse } from 'mongo-standin';
import { pino } from 'pino';
import { Database } from '../src/db/database.ts';
import { freePort } from './support/free-port.ts';

const systemError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('what a command prints when it cannot run', () => {
  it('is one line for what an operator fixes: a setting, a port or directory in use, a path, an option, a lost lease', () => {
    for (const error of [
      new ConfigError('Invalid configuration: PORT: expected a number'),
      new DataDirInUse('the data directory .data/standin is in use by process 42'),
      systemError('EADDRINUSE', 'listen EADDRINUSE: address already in use 0.0.0.0:8080'),
      systemError('ENOENT', "ENOENT: no such file or directory, open 'postcodes.csv'"),
      systemError('ERR_PARSE_ARGS_UNKNOWN_OPTION', "Unknown option '--bogus'"),
      new ImportLeaseLost(60_000),
    ]) {
      expect(failureMessage(error)).toBe(error.message);
    }
  });

  it('says that the database cannot be reached', () => {
    expect(failureMessage(new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:1'))).toBe(
      'the database cannot be reached: connect ECONNREFUSED 127.0.0.1:1',
    );
  });

  it('says that the database is out of disk space, not out of reach', () => {
    const full = new MongoServerError({
      code: 14031,
      codeName: 'OutOfDiskSpace',
      errmsg: 'No space left on device',
    });
    expect(failureMessage(full)).toBe('the database is out of disk space: No space left on device');
  });

  it('says why, for an operation that waited on a connection that failed (not "Topology is closed")', async () => {
    const port = await freePort();
    const database = new Database({
      uri: `mongodb://127.0.0.1:${port}/`,
      dbName: 'unreached',
      timeoutMs: 1000,
      logger: pino({ level: 'silent' }),
    });
    try {
      const failure = await database.db.command({ ping: 1 }).catch((error: unknown) => error);
      expect(failureMessage(failure)).toBe(
        `the database cannot be reached: connect ECONNREFUSED 127.0.0.1:${port}`,
      );
    } finally {
      await database.close();
    }
  });

  it('keeps the whole error, stack and all, for anything else', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(failureMessage(bug)).toBe(bug);
    expect(failureMessage(systemError('EPIPE', 'write EPIPE'))).toBeInstanceOf(Error);
  });
});
