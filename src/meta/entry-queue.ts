import type { Logger } from 'pino';
import type { MetaEntries, MetaFields } from './entries.ts';

const DEFAULT_CAPACITY = 10_000;
const BATCH_SIZE = 100;

/**
 * Where the recorder leaves entries: a bounded queue written to the database in the background, so that
 * recording never slows down or fails the call it records. When the database cannot keep up and the
 * queue is full, new entries are dropped and counted; write failures are logged with no details of the
 * calls (the driver's message can quote the document), and those entries are lost.
 */
export class MetaEntryQueue {
  private queue: MetaFields[] = [];
  private draining: Promise<void> | undefined;
  /** Entries dropped because the queue was full. */
  dropped = 0;
  /** Entries lost because the database refused or could not be reached. */
  failed = 0;

  constructor(
    private readonly entries: MetaEntries,
    private readonly logger: Logger,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  add(entry: MetaFields): void {
    if (this.queue.length >= this.capacity) {
      // One line per thousand, so a flood of drops does not become a flood of log lines.
      if (this.dropped++ % 1000 === 0) {
        this.logger.warn({ dropped: this.dropped }, 'meta entry queue full; entries dropped');
      }
      return;
    }
    this.queue.push(entry);
    this.schedule();
  }

  /** Resolves once every entry queued so far has been written (or has failed). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private schedule(): void {
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
      // An entry added between the last batch and this callback would otherwise wait for the next one.
      if (this.queue.length > 0) this.schedule();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH_SIZE);
      try {
        await this.entries.createMany(batch);
      } catch (error) {
        // An unordered insert stores what it can; the driver's error says how many made it.
        const { name, code, insertedCount } = error as {
          name?: unknown;
          code?: unknown;
          insertedCount?: number;
        };
        const lost = batch.length - (insertedCount ?? 0);
        this.failed += lost;
        this.logger.error(
          { errorName: name, errorCode: code, lost, failed: this.failed },
          'meta entries could not be recorded',
        );
      }
    }
  }
}
