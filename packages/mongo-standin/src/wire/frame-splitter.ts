/**
 * Cuts a TCP byte stream into wire protocol messages: each starts with its int32 total length, and
 * a chunk may hold part of a message or several of them.
 */
export class FrameSplitter {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;

  constructor(private readonly maxMessageBytes: number) {}

  /** Adds received bytes and returns the messages they complete. Throws on an impossible length. */
  push(chunk: Buffer): Buffer[] {
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    const messages: Buffer[] = [];
    while (this.bufferedBytes >= 4) {
      const head = this.buffered[0]!.length >= 4 ? this.buffered[0]! : this.flatten();
      const length = head.readInt32LE(0);
      if (length < 16 || length > this.maxMessageBytes) throw new Error(`invalid message length ${length}`);
      if (this.bufferedBytes < length) break;
      const all = this.flatten();
      messages.push(all.subarray(0, length));
      const rest = all.subarray(length);
      this.buffered = rest.length > 0 ? [rest] : [];
      this.bufferedBytes = rest.length;
    }
    return messages;
  }

  private flatten(): Buffer {
    if (this.buffered.length > 1) this.buffered = [Buffer.concat(this.buffered, this.bufferedBytes)];
    return this.buffered[0]!;
  }
}
