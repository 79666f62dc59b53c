/**
 * Journal writes shared between commands: records handed in while a write and fsync are under way wait
 * and go out together in the next one. A command's reply waits for the fsync that covers its records, but
 * the commands after it need not: they run while the disk works, and their records share the next fsync.
 * Rounds run one at a time and in order, so records reach the journal in the order they were applied.
 */
export class GroupCommit<T> {
  private waiting: T[] = [];
  /** The round that will write `waiting`, not yet started. */
  private next: Promise<void> | undefined;
  /** Settles when the last round started has ended, whatever its outcome. */
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly write: (items: T[]) => Promise<void>) {}

  /** Queues items for the next round; resolves once they are written (rejects if that round fails). */
  add(items: readonly T[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    for (const item of items) this.waiting.push(item);
    if (!this.next) {
      const round = this.last.then(() => {
        this.next = undefined;
        const taken = this.waiting;
        this.waiting = [];
        return this.write(taken);
      });
      this.next = round;
      // The next round follows this one whatever it did; a failure is reported to this round's callers.
      this.last = round.catch(() => {});
    }
    return this.next;
  }

  /** Settles once everything added so far has been written or has failed. */
  flushed(): Promise<void> {
    return this.last;
  }
}
