/**
 * Runs tasks one at a time in arrival order. MongoDB applies each write atomically per document;
 * running a database's commands one after the other gives that without finer locking.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
