import { Worker } from 'node:worker_threads';
import { checkEntry, type BatchEntry, type CheckedEntry } from './batch-item.ts';
import type { RecordType } from './record-type.ts';
import type { CheckRequest } from './validation-worker.ts';

/**
 * Checks a batch's records (parsing, validation, decomposition) in worker threads, so that an import uses
 * more than one core: meanwhile the import's own thread composes and writes the batch before. Each worker
 * takes a share of the batch; the answers come back in order.
 */
export class ValidationPool {
  private workers: CheckingWorker[] | undefined;
  private closed = false;

  /**
   * A pool of `size` workers (none: records are checked in the calling thread). They start with the first
   * records to check: an import of records all given again unchanged checks none.
   */
  constructor(private readonly size: number) {}

  async check(entries: BatchEntry[], type: RecordType | undefined): Promise<CheckedEntry[]> {
    if (this.closed) throw new Error('the validation pool is closed');
    if (this.size === 0 || entries.length === 0) return entries.map((entry) => checkEntry(entry, type));
    const workers = (this.workers ??= Array.from({ length: this.size }, () => new CheckingWorker()));
    const shares = shareOut(entries, workers.length);
    const answers = await Promise.all(shares.map((share, at) => workers[at]!.ask({ entries: share, type })));
    return answers.flat();
  }

  async close(): Promise<void> {
    this.closed = true;
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

  ask(request: CheckRequest): Promise<CheckedEntry[]> {
    return new Promise((resolve, reject) => {
      if (this.stopped) return reject(this.stopped);
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
      this.worker.postMessage(request);
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
