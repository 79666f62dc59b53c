import { Worker } from 'node:worker_threads';
import { checkAll, checkEntry, type BatchEntry, type CheckedEntry, type CheckRequest } from './batch-item.ts';
import { withTurns } from './event-loop-turns.ts';
import type { RecordType } from './record-type.ts';

/**
 * Checks a batch's records (parsing, validation, decomposition) in worker threads, so that an import uses
 * more than one core: meanwhile the import's own thread composes and writes the documents of the batches
 * before. Each worker takes a share of the batch; the answers come back in order, and are what checking in
 * the calling thread gives (`checkEntry` for each record in both).
 *
 * The workers start with the first records to check (an import of records all given again unchanged checks
 * none), and those are checked in the calling thread while they start (~1 s). Records a worker cannot be
 * given (the structured clone fails, e.g. on one nested thousands deep) are checked in the calling thread.
 * A worker that fails or stops is not trusted again: the pool checks everything in the calling thread from
 * then on, after telling `onFallback` why, so an import never fails for its workers.
 */
export class ValidationPool {
  private workers: CheckingWorker[] | undefined;
  private closed = false;
  /** Checks run one after another: each worker answers one request at a time. */
  private previous: Promise<unknown> = Promise.resolve();

  constructor(
    /** Worker threads (0: records are checked in the calling thread). */
    readonly size: number,
    private readonly onFallback: (reason: string) => void = () => {},
  ) {
    if (!Number.isSafeInteger(size) || size < 0)
      throw new RangeError(`a validation pool's size must be an integer ≥ 0, got ${size}`);
  }

  /** Whether checks go to worker threads (started, or starting). */
  get threaded(): boolean {
    return this.workers !== undefined && this.workers.length > 0;
  }

  check(entries: BatchEntry[], type: RecordType | undefined): Promise<CheckedEntry[]> {
    const answers = this.previous.then(() => this.checkNow(entries, type));
    this.previous = answers.catch(() => {});
    return answers;
  }

  private async checkNow(entries: BatchEntry[], type: RecordType | undefined): Promise<CheckedEntry[]> {
    if (this.closed) throw new Error('the validation pool is closed');
    const inThisThread = async () => {
      const answers: CheckedEntry[] = [];
      for await (const entry of withTurns(entries)) answers.push(checkEntry(entry, type));
      return answers;
    };
    if (this.size === 0 || entries.length === 0) return inThisThread();
    if (!this.workers) {
      this.workers = this.startWorkers();
      return inThisThread();
    }
    const workers = this.workers;
    if (workers.length === 0) return inThisThread();
    const shares = shareOut(entries, workers.length);
    try {
      const answers = await Promise.all(
        shares.map((share, at) => workers[at]!.ask({ entries: share, type })),
      );
      return answers.flat();
    } catch (error) {
      // Checked again here: a record that made a worker fail makes this thread's check fail alike.
      this.fallBack(error);
      await Promise.all(workers.map((worker) => worker.stop()));
      return inThisThread();
    }
  }

  private startWorkers(): CheckingWorker[] {
    const started: CheckingWorker[] = [];
    try {
      while (started.length < this.size) started.push(new CheckingWorker());
      return started;
    } catch (error) {
      this.fallBack(error); // e.g. tsx cannot be found
      for (const worker of started) void worker.stop();
      return [];
    }
  }

  private fallBack(error: unknown): void {
    this.workers = [];
    this.onFallback(
      `validation workers stopped (${(error as Error).message}); records are validated in the import's thread`,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.previous;
    await Promise.all((this.workers ?? []).map((worker) => worker.stop()));
  }
}

/** A worker thread answering one request at a time; once it has stopped, every request fails. */
class CheckingWorker {
  private readonly worker: Worker;
  private stopped: Error | undefined;

  constructor() {
    // The worker's module is TypeScript, run by tsx as the app is: its loader is registered in the worker
    // first (a worker does not inherit its parent's loader hooks).
    const tsx = import.meta.resolve('tsx/esm/api');
    const module = new URL('./validation-worker.ts', import.meta.url).href;
    const [tsxUrl, moduleUrl] = [JSON.stringify(tsx), JSON.stringify(module)];
    this.worker = new Worker(
      `import(${tsxUrl}).then(({ tsImport }) => tsImport(${moduleUrl}, ${moduleUrl}))`,
      {
        eval: true,
      },
    );
    this.worker.on('error', (error) => (this.stopped ??= error));
    this.worker.on(
      'exit',
      (code) => (this.stopped ??= new Error(`a validation worker stopped (exit code ${code})`)),
    );
  }

  /** The answers, in order; those of a request whose records cannot be copied to the worker, checked here. */
  ask(request: CheckRequest): Promise<CheckedEntry[]> {
    return new Promise((resolve, reject) => {
      if (this.stopped) return reject(this.stopped);
      try {
        this.worker.postMessage(request);
      } catch {
        return resolve(checkAll(request));
      }
      const answered = (answer: CheckedEntry[]) => {
        this.worker.off('exit', failed);
        resolve(answer);
      };
      // An uncaught error in the worker is followed by its exit: `stopped` holds the error by then.
      const failed = () => {
        this.worker.off('message', answered);
        reject(this.stopped);
      };
      this.worker.once('message', answered);
      this.worker.once('exit', failed);
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

/** Consecutive shares of about the same text length, one per worker. */
function shareOut(entries: BatchEntry[], count: number): BatchEntry[][] {
  const sizeOf = ({ input }: BatchEntry) => input.text?.length ?? 1;
  const total = entries.reduce((sum, entry) => sum + sizeOf(entry), 0);
  const shares: BatchEntry[][] = [[]];
  let filled = 0;
  for (const entry of entries) {
    if (filled >= (total * shares.length) / count && shares.length < count) shares.push([]);
    shares.at(-1)!.push(entry);
    filled += sizeOf(entry);
  }
  return shares;
}
