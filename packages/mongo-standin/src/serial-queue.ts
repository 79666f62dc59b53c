/**
 * Runs tasks one at a time, in arrival order; a task's failure does not stop the ones after it. Used by
 * the imports of a process, and by the stand-in for each database's commands (MongoDB applies each write
 * atomically per document: running them one after the other gives that without finer locking), its
 * replies on a connection and its data-directory locks.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
