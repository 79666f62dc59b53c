/**
 * Runs tasks one at a time, in the order given. Imports over HTTP go through one, so two bulk loads never
 * rebuild the same documents at once; a task's failure does not stop the ones after it.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Tasks given and not yet finished (the running one included). */
  get size(): number {
    return this.pending;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.pending += 1;
    const result = this.tail.then(task).finally(() => (this.pending -= 1));
    this.tail = result.catch(() => undefined);
    return result;
  }
}
