/**
 * Work run behind its caller, one piece at a time and in order: `add` queues a piece and returns once the
 * piece before it has finished, so the caller prepares the next piece while this one runs, and at most
 * one piece waits behind the running one, which bounds what is held in memory. An import rebuilds one
 * batch's documents while it validates and writes the next batch's rows; a rebuild writes one chunk of
 * documents while it composes the next. The importer and the database work at the same time instead of
 * waiting on each other.
 */
export class WorkBehind {
  private tail: Promise<void> = Promise.resolve();

  /**
   * Queues `work` behind the pieces queued before; returns once the one before it has finished, throwing
   * its failure (or an earlier one), in which case `work` does not run.
   */
  async add(work: () => Promise<void>): Promise<void> {
    const previous = this.tail;
    this.tail = previous.then(work);
    // Its failure is reported by the next `add` or by `drain`, not as an unhandled rejection meanwhile.
    this.tail.catch(() => {});
    await previous;
  }

  /** Waits for every queued piece; throws the first failure. */
  drain(): Promise<void> {
    return this.tail;
  }

  /** Waits until nothing runs any more, whatever failed: a failure leaves no work running behind it. */
  async settle(): Promise<void> {
    await this.tail.catch(() => {});
  }
}
