/** Addresses remembered at most. */
const MAX_CLIENTS = 100_000;

/**
 * Slows down guessing: a client (by address) that fails authentication `limit` times within `windowMs`
 * is refused until the window has passed. A success does not reset the count: otherwise someone holding
 * one valid login could interleave it with guesses at another's code without limit. Kept in this
 * process's memory: behind several instances, each counts on its own (put a shared limiter in the proxy
 * for a hard global limit). At most MAX_CLIENTS addresses are remembered, the oldest forgotten first, so
 * a flood of addresses costs bounded memory and constant time per failure.
 */
export class FailedAttempts {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly now: () => number = Date.now,
    private readonly maxClients = MAX_CLIENTS,
  ) {}

  /** Seconds the client must wait before trying again, or 0 if it may try now. */
  retryAfterSeconds(client: string): number {
    const entry = this.current(client);
    if (!entry || entry.count < this.limit) return 0;
    return Math.ceil((entry.since + this.windowMs - this.now()) / 1000);
  }

  recordFailure(client: string): void {
    const entry = this.current(client) ?? { count: 0, since: this.now() };
    entry.count += 1;
    this.failures.set(client, entry);
    if (this.failures.size > this.maxClients) this.forgetOldest();
  }

  /** Takes back one failure recorded for an attempt that then succeeded. */
  withdrawFailure(client: string): void {
    const entry = this.current(client);
    if (entry) entry.count = Math.max(0, entry.count - 1);
  }

  private current(client: string) {
    const entry = this.failures.get(client);
    if (entry && this.now() - entry.since >= this.windowMs) {
      this.failures.delete(client);
      return undefined;
    }
    return entry;
  }

  /**
   * A Map iterates in insertion order, and an entry is inserted when its window starts: the first one is
   * the oldest (expired, or the nearest to its end).
   */
  private forgetOldest(): void {
    for (const client of this.failures.keys()) {
      if (this.failures.size <= this.maxClients) return;
      this.failures.delete(client);
    }
  }
}
