import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import type { Level, Logger } from 'pino';
import { ConfigError } from '../config.ts';
import { isJsonObject, type Json } from '../json.ts';

export type EmbeddedKind = 'mongod' | 'standin';

export interface EmbeddedDatabaseOptions {
  mode: 'auto' | EmbeddedKind;
  port: number;
  dataDir: string;
  logger: Logger;
  /** The database's own directory, when not the kind's under `dataDir` (taken over: the owner's). */
  dbPath?: string;
}

export interface EmbeddedDatabase {
  /**
   * Which server this process runs; `shared` when another process of ours runs it (we start it ourselves
   * if that process goes away).
   */
  readonly kind: EmbeddedKind | 'shared';
  readonly uri: string;
  close(): Promise<void>;
}

/** How often a process sharing the embedded database checks that it still answers. */
const SHARED_CHECK_INTERVAL_MS = 2_000;
/** How soon a database of ours that stopped is started again; longer when it stops again soon after. */
const FIRST_RESTART_DELAY_MS = 250;
/** A database that stopped less than this after the previous stop is started again after a longer wait. */
const QUICK_RESTART_WINDOW_MS = 60_000;
/** Longest wait between attempts at starting the database here: taking it over, or starting it again. */
const MAX_START_DELAY_MS = 30_000;
/** How long the stand-in's process may take to listen: it opens its data directory first. */
const STANDIN_START_TIMEOUT_MS = 60_000;
/**
 * How long it may take instead once it says it is upgrading its storage format (`standin upgrading …`): it
 * copies its tables first, in one transaction (~90 MB/s on our 2-core machines), which a kill would undo.
 */
const STANDIN_UPGRADE_TIMEOUT_MS = 60 * 60_000;
/** How long the stand-in's process may take to stop on SIGTERM (it closes its data files) before a SIGKILL. */
const STANDIN_STOP_TIMEOUT_MS = 10_000;
/** The stand-in's last lines of output kept for an error that says why it could not start. */
const RECENT_LINES = 20;

const HOST = '127.0.0.1';

const uriFor = (port: number) => `mongodb://${HOST}:${port}/?directConnection=true`;

/**
 * Starts the database used when no MONGODB_URI is given: a real mongod from mongodb-memory-server when a
 * binary can be had, else the offline stand-in, each in a process of its own. It listens on a fixed
 * loopback port so the import CLI and mongosh can share it; if something of ours already answers there, we
 * use it instead of starting another.
 */
export async function startEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const { logger, port } = options;
  const running = await runningOn(port);
  if (running) {
    logger.info(
      { uri: uriFor(port), dbPath: running.dbPath },
      'embedded database already running; sharing it',
    );
    // Taken over as what it is, on its data: the owner's directory, whatever ours is.
    const shared = new KeptDatabase({ ...options, mode: running.kind, dbPath: running.dbPath });
    shared.checkIn(SHARED_CHECK_INTERVAL_MS);
    return shared;
  }
  const own = new KeptDatabase(options);
  await own.start();
  return own;
}

/** How a database's process ended. */
interface Exit {
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A database this process started. */
interface OwnDatabase {
  kind: EmbeddedKind;
  uri: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The embedded database, kept answering on its port while we use it. Ours is started again when its
 * process stops on its own (the stand-in's: mongod's is left to mongodb-memory-server). Another process's
 * is checked on, and taken over when it stops answering (that process exited: e.g. the import CLI that
 * started it while this server joined): we start it ourselves on the same port and data directory, and
 * the driver reconnects. Of several processes sharing it, one wins the data directory's lock and the port;
 * the others keep sharing, now with the winner. Its timers keep this process running until `close`.
 */
class KeptDatabase implements EmbeddedDatabase {
  uri: string;
  private own: OwnDatabase | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  /** Whether ours stopped and is not running again yet (not taken over by another process either). */
  private restarting = false;
  private restartDelayMs = FIRST_RESTART_DELAY_MS;
  private stoppedAt = -Infinity;

  constructor(private options: EmbeddedDatabaseOptions) {
    this.uri = uriFor(options.port);
  }

  get kind(): EmbeddedKind | 'shared' {
    return this.own?.kind ?? 'shared';
  }

  /** Starts it here; its failure (a data directory in use, a port taken) is the caller's. */
  async start(): Promise<void> {
    this.own = await startOwnDatabase(this.options, (exit) => this.stopped(exit));
    this.uri = this.own.uri;
    // Started again where it listens (port 0 chose one), and as the kind it is: `auto` again could pick a
    // mongod binary found since, on a data directory of its own, and serve an empty directory.
    this.options = { ...this.options, port: this.own.port, mode: this.own.kind };
  }

  /** Checks, after `delayMs`, that it answers, and starts it here if not. */
  checkIn(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.checking = this.check(delayMs).finally(() => (this.checking = undefined));
    }, delayMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    // Started meanwhile: it is ours to stop.
    await this.checking;
    await this.own?.close();
  }

  private async check(delayMs: number): Promise<void> {
    const { logger, port } = this.options;
    // A connection is all it takes to see that it answers: no client, no commands.
    if (await listensOn(port)) {
      this.restarting = false;
      return this.checkIn(SHARED_CHECK_INTERVAL_MS);
    }
    if (this.closed) return;
    try {
      await this.start();
    } catch (error) {
      // Another sharer took it over, or it cannot be started here (no mongod, the data directory still
      // held): tried again less often.
      const retryInMs = Math.min(delayMs * 2, MAX_START_DELAY_MS);
      const reason = (error as Error).message;
      if (this.restarting)
        logger.warn({ reason, retryInMs }, 'the embedded database could not be started again; retrying');
      else logger.info({ reason, retryInMs }, 'the shared embedded database went away; not taken over');
      return this.checkIn(retryInMs);
    }
    if (!this.restarting)
      logger.warn({ uri: this.uri }, 'the shared embedded database went away; running it here now');
    this.restarting = false;
  }

  /** Ours stopped on its own (it crashed, or was killed): started again, at once the first time. */
  private stopped(exit: Exit): void {
    this.own = undefined;
    const now = Date.now();
    this.restartDelayMs =
      now - this.stoppedAt < QUICK_RESTART_WINDOW_MS
        ? Math.min(this.restartDelayMs * 2, MAX_START_DELAY_MS)
        : FIRST_RESTART_DELAY_MS;
    this.stoppedAt = now;
    this.restarting = true;
    this.options.logger.warn(
      { ...exit, restartInMs: this.restartDelayMs },
      'the embedded database stopped; starting it again',
    );
    this.checkIn(this.restartDelayMs);
  }
}

/** Whether something accepts connections on the loopback port. */
function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port, timeout: 500 });
    const answer = (listening: boolean) => {
      socket.destroy();
      resolve(listening);
    };
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
    socket.once('timeout', () => answer(false));
  });
}

/**
 * The embedded database, started here: mongod when a binary can be had (or is required), else the
 * stand-in. `stopped` is told when it stops on its own.
 */
async function startOwnDatabase(
  options: EmbeddedDatabaseOptions,
  stopped: (exit: Exit) => void,
): Promise<OwnDatabase> {
  const { logger, port } = options;
  const standinPath = path.resolve(options.dbPath ?? kindDirectory(options.dataDir, 'standin'));
  if (options.mode === 'auto' && options.dbPath === undefined && holdsOnlyStandinData(options.dataDir)) {
    logger.info(
      { dbPath: standinPath },
      'the data directory holds the stand-in’s data: auto keeps the stand-in',
    );
  } else if (options.mode !== 'standin') {
    try {
      return await startMongod(options);
    } catch (error) {
      if (options.mode === 'mongod') throw error;
      // Without mongodb-memory-server there is no mongod to miss: the stand-in answers, or says it is not here.
      if (!(error instanceof NoEmbeddedDatabase))
        logger.warn(
          { reason: (error as Error).message.replace(/\s*\n\s*/g, ' ') },
          'no mongod binary available; using the stand-in',
        );
    }
  }
  // Absolute: the path the stand-in gives sharers, which take it over from their own directories.
  return startStandinProcess({ port, dbPath: standinPath, logger }, stopped);
}

/**
 * Whether the data directory holds the stand-in's data and no mongod's: `auto` then stays with the stand-in,
 * whose data it would otherwise leave behind for an empty mongod once a binary can be had.
 */
function holdsOnlyStandinData(dataDir: string): boolean {
  const entries = (kind: EmbeddedKind) => {
    const directory = kindDirectory(dataDir, kind);
    return existsSync(directory) ? readdirSync(directory) : [];
  };
  return entries('standin').length > 0 && entries('mongod').length === 0;
}

/** Where each kind keeps its data under the data directory, unless taken over on another's. */
const kindDirectory = (dataDir: string, kind: EmbeddedKind) => path.join(dataDir, kind);

/**
 * An install without development dependencies (the production image) has neither embedded database: the
 * stand-in nor mongodb-memory-server. Without them, MONGODB_URI is required.
 */
class NoEmbeddedDatabase extends ConfigError {
  constructor() {
    super(
      'MONGODB_URI is not set, and this installation has no embedded database (it was installed without development dependencies): set MONGODB_URI',
    );
  }
}

/**
 * What an embedded database's package gives (loaded or located only when that database starts: a server
 * given MONGODB_URI never resolves either); NoEmbeddedDatabase when it is not installed.
 */
async function fromEmbeddedPackage<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes(`'${name}'`)) throw new NoEmbeddedDatabase();
    throw error;
  }
}

async function startMongod(options: EmbeddedDatabaseOptions): Promise<OwnDatabase> {
  // Loaded only when wanted: the package reads its configuration when first imported.
  process.env.MONGOMS_MAX_RETRIES ??= '1';
  const { MongoBinary, MongoMemoryServer } = await fromEmbeddedPackage(
    'mongodb-memory-server',
    () => import('mongodb-memory-server'),
  );
  // The binary first (found, or downloaded): when there is none, the server's own start-up would print
  // its whole failure before ours says that the stand-in is used instead.
  await MongoBinary.getPath();
  const dbPath = options.dbPath ?? kindDirectory(options.dataDir, 'mongod');
  await mkdir(dbPath, { recursive: true });
  const server = await MongoMemoryServer.create({
    instance: { ip: HOST, port: options.port, dbPath, storageEngine: 'wiredTiger' },
  });
  options.logger.info(
    { uri: uriFor(options.port), dbPath },
    'embedded database: mongod (mongodb-memory-server)',
  );
  return {
    kind: 'mongod',
    uri: uriFor(options.port),
    port: options.port,
    // Keep the data: dbPath is ours, not a temporary directory.
    close: async () => void (await server.stop({ doCleanup: false })),
  };
}

/** The stand-in's process could not start; `code` is its own error's (ERR_DATA_DIR_IN_USE, EADDRINUSE). */
class StandinStartFailed extends Error {
  override name = 'StandinStartFailed';

  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * The stand-in in a process of its own (its CLI, run through tsx as `npm start` runs the app), so that
 * its work does not queue on this process's event loop. It stops when this process goes away, even
 * killed outright (`--exit-with-parent`: it watches its standard input, a pipe from us); `stopped` is told
 * when it stops on its own. Its log lines join ours.
 */
async function startStandinProcess(
  { port, dbPath, logger }: { port: number; dbPath: string; logger: Logger },
  stopped: (exit: Exit) => void,
): Promise<OwnDatabase> {
  const entry = await fromEmbeddedPackage('mongo-standin', async () =>
    fileURLToPath(import.meta.resolve('mongo-standin/main')),
  );
  const child = spawn(
    process.execPath,
    [
      ...['--import', import.meta.resolve('tsx'), entry],
      ...['--port', String(port), '--dbpath', dbPath, '--exit-with-parent'],
    ],
    {
      // A process group of its own: a terminal's Ctrl-C reaches this process, which stops it, and not both.
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: logger.level },
    },
  );
  const exited = new Promise<Exit>((resolve) =>
    child.once('close', (code, signal) => resolve({ pid: child.pid, code, signal })),
  );
  const output = forwardLog(child.stderr!, logger.child({ component: 'standin' }));
  let uri: string;
  try {
    uri = await listeningUri(child, exited, output, (upgrade) =>
      logger.warn({ dbPath, upgrade }, 'embedded database: upgrading its storage format before it starts'),
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  output.listening();
  logger.info({ uri, dbPath, pid: child.pid }, 'embedded database: MongoDB stand-in');

  let stopping = false;
  void exited.then((exit) => {
    if (!stopping) stopped(exit);
  });
  return {
    kind: 'standin',
    uri,
    port: Number(new URL(uri).port),
    async close() {
      stopping = true;
      child.kill('SIGTERM');
      const timedOut = sleep(STANDIN_STOP_TIMEOUT_MS, true, { ref: false });
      if (!(await Promise.race([exited.then(() => false), timedOut]))) return;
      logger.warn({ pid: child.pid }, 'the stand-in did not stop in time on SIGTERM; killing it');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * The URI the stand-in prints once it listens; its failure if it stops first or takes too long: the error
 * it logged when it has a code (a data directory in use, a port taken: what a command prints in one
 * line), else its last lines of output (a crash before it could log). An upgrade of its storage it says
 * it is making (`upgrading`, told what it said) is given STANDIN_UPGRADE_TIMEOUT_MS.
 */
function listeningUri(
  child: ChildProcess,
  exited: Promise<Exit>,
  output: StandinOutput,
  upgrading: (upgrade: string) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let listening = false;
    const timeOut = (ms: number) =>
      setTimeout(
        () =>
          reject(
            new StandinStartFailed(
              `the MongoDB stand-in did not listen within ${ms / 1000} s:\n${output.recent()}`,
            ),
          ),
        ms,
      );
    let timer = timeOut(STANDIN_START_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const upgrade = /^standin upgrading (.+)$/.exec(line)?.[1];
      if (upgrade !== undefined && !listening) {
        clearTimeout(timer);
        timer = timeOut(STANDIN_UPGRADE_TIMEOUT_MS);
        upgrading(upgrade);
        return;
      }
      const uri = /^standin listening on (\S+)$/.exec(line)?.[1];
      if (uri === undefined || listening) return;
      listening = true;
      clearTimeout(timer);
      resolve(uri);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then(({ code, signal }) => {
      if (listening) return;
      clearTimeout(timer);
      const logged = output.loggedError();
      reject(
        logged?.code
          ? new StandinStartFailed(logged.message, logged.code)
          : new StandinStartFailed(
              `the MongoDB stand-in stopped (${signal ?? `exit code ${code}`}) before it listened:\n${output.recent()}`,
            ),
      );
    });
  });
}

/** What the stand-in wrote to its standard error. */
interface StandinOutput {
  /** Its last lines, as written. */
  recent(): string;
  /** The last error it logged. */
  loggedError(): { message: string; code?: string } | undefined;
  /** Tells it that the stand-in listens: its errors are its own to report from now on. */
  listening(): void;
}

/**
 * Writes the stand-in's log (pino JSON lines on its standard error) into ours as it comes: each line at
 * its level with its fields (its `pid` among them, its time and host name left out), marked with our
 * logger's `component`. A line that is not JSON (a crash's stack trace) is logged at warn as it is.
 */
function forwardLog(stream: Readable, logger: Logger): StandinOutput {
  const recent: string[] = [];
  let loggedError: { message: string; code?: string } | undefined;
  let starting = true;
  createInterface({ input: stream }).on('line', (line) => {
    recent.push(line);
    if (recent.length > RECENT_LINES) recent.shift();
    const entry = parseJsonObject(line);
    if (!entry) return logger.warn(line);
    const { level, msg, time: _time, hostname: _hostname, ...fields } = entry;
    const { err } = fields;
    if (isJsonObject(err) && typeof err.message === 'string') {
      loggedError = { message: err.message, ...(typeof err.code === 'string' ? { code: err.code } : {}) };
      // Without a prototype, our error serializer keeps its type (DataDirInUse) instead of naming it Object.
      fields.err = Object.assign(Object.create(null), err);
    }
    // A start-up failure with a code (the data directory in use, the port taken) is ours to report, as
    // a StandinStartFailed: often no failure at all (another process's stand-in, started meanwhile, is
    // shared), so not at the stand-in's own fatal level.
    const ours = starting && isJsonObject(err) && typeof err.code === 'string';
    const label = ours ? 'debug' : ((logger.levels.labels[Number(level)] ?? 'info') as Level);
    logger[label](fields, typeof msg === 'string' ? msg : '');
  });
  return {
    recent: () => recent.join('\n'),
    loggedError: () => loggedError,
    listening: () => void (starting = false),
  };
}

function parseJsonObject(line: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which kind of database answers on the port, if one does (the stand-in says so in buildInfo), and where
 * its data is, if it says (getCmdLineOpts).
 */
async function runningOn(port: number): Promise<{ kind: EmbeddedKind; dbPath?: string } | undefined> {
  const client = new MongoClient(uriFor(port), { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500 });
  try {
    const admin = client.db('admin');
    const info = await admin.command({ buildInfo: 1 });
    const options = await admin.command({ getCmdLineOpts: 1 }).catch(() => undefined);
    const dbPath: unknown = options?.parsed?.storage?.dbPath;
    return {
      kind: info.standin === true ? 'standin' : 'mongod',
      ...(typeof dbPath === 'string' ? { dbPath } : {}),
    };
  } catch {
    return undefined;
  } finally {
    await client.close();
  }
}
