import { mkdir, readdir } from 'node:fs/promises';
import { invalidNamespace } from '../errors.ts';
import { lockDataDir } from '../storage/data-dir-lock.ts';
import { DatabaseStore } from '../storage/database-store.ts';
import { Database } from './database.ts';

export interface EngineOptions {
  dataDir: string;
  /** The journal is compacted into the snapshot once it exceeds this and the snapshot's size. */
  compactMinBytes?: number;
}

const DEFAULT_COMPACT_MIN_BYTES = 64 * 1024 * 1024;
const DATABASE_FILE = /^(.+)\.(journal|snapshot)$/;

/** All databases under a data directory. */
export class Engine {
  private readonly databases = new Map<string, Database>();

  private constructor(
    /** Where its files are (`getCmdLineOpts` tells it, as mongod tells its --dbpath). */
    readonly dataDir: string,
    private readonly compactMinBytes: number,
    private readonly unlock: () => Promise<void>,
  ) {}

  /** Loads every database found in the data directory, compacting those with a long journal. */
  static async open(options: EngineOptions): Promise<Engine> {
    await mkdir(options.dataDir, { recursive: true });
    const unlock = await lockDataDir(options.dataDir);
    const engine = new Engine(options.dataDir, options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES, unlock);
    try {
      const names = new Set<string>();
      for (const file of await readdir(options.dataDir)) {
        const match = DATABASE_FILE.exec(file);
        if (match) names.add(match[1]!);
      }
      for (const name of names) {
        const { store, records } = await DatabaseStore.load(engine.dataDir, name, engine.compactMinBytes);
        const database = new Database(name, store);
        database.replay(records);
        if (database.shouldCompact) await database.compact();
        engine.databases.set(name, database);
      }
    } catch (error) {
      await unlock();
      throw error;
    }
    return engine;
  }

  database(name: string): Database | undefined {
    return this.databases.get(name);
  }

  /** The database, created on first use as MongoDB does. */
  ensureDatabase(name: string): Database {
    let database = this.databases.get(name);
    if (!database) {
      validateDatabaseName(name);
      database = new Database(name, DatabaseStore.create(this.dataDir, name, this.compactMinBytes));
      this.databases.set(name, database);
    }
    return database;
  }

  databaseNames(): string[] {
    return [...this.databases.keys()];
  }

  async dropDatabase(name: string): Promise<void> {
    const database = this.databases.get(name);
    if (!database) return;
    this.databases.delete(name);
    await database.destroy();
  }

  async close(): Promise<void> {
    for (const database of this.databases.values()) await database.exclusive(() => database.close());
    await this.unlock();
  }
}

function validateDatabaseName(name: string): void {
  if (name === '' || /[/\\. "$*<>:|?\0]/.test(name) || name.length > 63)
    throw invalidNamespace(`Invalid database name: '${name}'`);
}
