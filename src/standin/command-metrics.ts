import { Long, type Document } from 'bson';

/**
 * How many times each command ran, and failed, since the server started: serverStatus's
 * `metrics.commands`, in MongoDB's shape (`{find: {failed, total}}`, 64-bit counts). Unknown commands are
 * not counted by name, as on MongoDB.
 */
export class CommandMetrics {
  private readonly counts = new Map<string, { total: number; failed: number }>();

  record(name: string, failed: boolean): void {
    let count = this.counts.get(name);
    if (!count) this.counts.set(name, (count = { total: 0, failed: 0 }));
    count.total += 1;
    if (failed) count.failed += 1;
  }

  toDocument(): Document {
    const commands: Document = {};
    for (const [name, { total, failed }] of this.counts)
      commands[name] = { failed: Long.fromNumber(failed), total: Long.fromNumber(total) };
    return commands;
  }
}
