import { mkdir } from 'node:fs/promises';
import { invalidNamespace } from '../errors.ts';
import { lockDataDir } from '../storage/data-dir-lock.ts';
import { Storage, type StorageUpgrade } from '../storage/storage.ts';
import { Database } from './database.ts';

export interface EngineOptions {
  dataDir: string;
  /** Told of an upgrade of the data directory's storage format before it runs. */
  onUpgrade?: (upgrade: StorageUpgrade) => void;
}

/** All databases under a data directory, in its one storage environment. */
export class Engine {
  private readonly databases = new Map<string, Database>();

  private constructor(
    readonly storage: Storage,
    private readonly unlock: () => Promise<void>,
  ) {}

  /** Where its files are (`getCmdLineOpts` tells it, as mongod tells its --dbpath). */
  get dataDir(): string {
    return this.storage.dataDir;
  }

  /** Opens the data directory: the catalog is read, nothing is replayed. */
  static async open(options: EngineOptions): Promise<Engine> {
    await mkdir(options.dataDir, { recursive: true });
    const unlock = await lockDataDir(options.dataDir);
    let storage: Storage;
    try {
      storage = await Storage.open(options.dataDir, options.onUpgrade);
    } catch (error) {
      await unlock();
      throw error;
    }
    const engine = new Engine(storage, unlock);
    const entries = storage.collections();
    for (const name of new Set(entries.map((entry) => entry.database)))
      engine.databases.set(
        name,
        new Database(
          name,
          storage,
          entries.filter((entry) => entry.database === name),
        ),
      );
    return engine;
  }

  database(name: string): Database | undefined {
    return this.databases.get(name);
  }

  /** The database, created on first use as MongoDB does (it holds nothing until a collection is made). */
  ensureDatabase(name: string): Database {
    let database = this.databases.get(name);
    if (!database) {
      validateDatabaseName(name);
      database = new Database(name, this.storage, []);
      this.databases.set(name, database);
    }
    return database;
  }

  databaseNames(): string[] {
    return [...this.databases.keys()];
  }

  async close(): Promise<void> {
    await this.storage.close();
    await this.unlock();
  }
}

function validateDatabaseName(name: string): void {
  if (name === '' || /[/\\. "$*<>:|?\0]/.test(name) || name.length > 63)
    throw invalidNamespace(`Invalid database name: '${name}'`);
}
