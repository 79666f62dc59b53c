import { Long, type Document } from 'bson';

/**
 * How many times each command ran, and failed, since the server started: serverStatus's
 * `metrics.commands`, in MongoDB's shape (`{find: {failed, total}}`, 64-bit counts), an alias counted
 * under its command's name, and commands the server does not know together under `<UNKNOWN>` (a count).
 */
export class CommandMetrics {
  private readonly counts = new Map<string, { total: number; failed: number }>();
  private unknown = 0;

  recordUnknown(): void {
    this.unknown += 1;
  }

  record(name: string, failed: boolean): void {
    let count = this.counts.get(name);
    if (!count) this.counts.set(name, (count = { total: 0, failed: 0 }));
    count.total += 1;
    if (failed) count.failed += 1;
  }

  toDocument(): Document {
    const commands: Document = this.unknown > 0 ? { '<UNKNOWN>': Long.fromNumber(this.unknown) } : {};
    for (const [name, { total, failed }] of this.counts)
      commands[name] = { failed: Long.fromNumber(failed), total: Long.fromNumber(total) };
    return commands;
  }
}
