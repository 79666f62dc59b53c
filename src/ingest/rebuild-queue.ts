/**
 * Document rebuilds run behind the row writes: while one batch's documents are rebuilt, the next batch is
 * read, validated, planned and its rows written, so the importer and the database work at the same time
 * instead of waiting on each other. Rebuilds run one at a time and in batch order, so a later batch's
 * rebuild sees (and redoes) whatever an earlier one composed before the later rows were written. At most
 * one rebuild waits behind the running one, which bounds the batches held in memory.
 */
export class RebuildQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Queues `rebuild` behind the rebuilds queued before; returns once the one before it has finished. */
  async add(rebuild: () => Promise<void>): Promise<void> {
    const previous = this.tail;
    this.tail = previous.then(rebuild);
    // Its failure is reported by the next `add` or by `drain`, not as an unhandled rejection meanwhile.
    this.tail.catch(() => {});
    await previous;
  }

  /** Waits for every queued rebuild; throws the first failure. */
  drain(): Promise<void> {
    return this.tail;
  }

  /** Waits until nothing runs any more, whatever failed: an import that fails leaves no work behind it. */
  async settle(): Promise<void> {
    await this.tail.catch(() => {});
  }
}
