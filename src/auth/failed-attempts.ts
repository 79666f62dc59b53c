import { createHash } from 'node:crypto';

/**
 * Failures allowed per client address and login in a window: room for a person's typing mistakes, too few
 * for guessing one login's code to get anywhere.
 */
const PER_LOGIN = 10;
/**
 * Failures allowed per client address over every login in a window: ten logins' worth, so that people
 * sharing an address (an office behind NAT, a proxy) are not locked out by each other's mistakes, while
 * password spraying (a guess or two at each of many logins) stops after 100.
 */
const PER_CLIENT = 100;
/** A person locked out waits minutes; a guesser gets 40 tries an hour at a login (400 in all) per address. */
const WINDOW_MS = 15 * 60 * 1000;
/** Keys each count remembers at most: some 25 MB each when full. */
const MAX_KEYS = 100_000;

export interface FailedAttemptsOptions {
  perLogin?: number;
  perClient?: number;
  windowMs?: number;
  now?: () => number;
  maxKeys?: number;
}

/**
 * Slows down guessing. Failed authentications are counted per client address and login, and per address:
 * a client is refused a login once it failed `perLogin` times at it within the window, and every login
 * once it failed `perClient` times at all, until that window has passed. So one login's failures never
 * lock out another login at the same address, and trying many logins from one address is still stopped.
 *
 * A success does not reset a count (it takes back only its own attempt): every protocol call
 * authenticates, so a busy client would otherwise keep clearing the count of whoever shares its address
 * and guesses at its login, and one valid login could launder guesses at the per-address count. Kept in
 * this process's memory: behind several instances, each counts on its own (put a shared limiter in the
 * proxy for a hard global limit).
 */
export class FailedAttempts {
  private readonly byLogin: WindowCounts;
  private readonly byClient: WindowCounts;
  /** Checks under way per client address, and what settles once none is left. */
  private readonly checking = new Map<string, { count: number; ended: Promise<void>; end: () => void }>();

  constructor({
    perLogin = PER_LOGIN,
    perClient = PER_CLIENT,
    windowMs = WINDOW_MS,
    now = Date.now,
    maxKeys = MAX_KEYS,
  }: FailedAttemptsOptions = {}) {
    this.byLogin = new WindowCounts(perLogin, windowMs, maxKeys, now);
    this.byClient = new WindowCounts(perClient, windowMs, maxKeys, now);
  }

  /** Seconds the client must wait before trying this login again, or 0 if it may try now. */
  retryAfterSeconds(client: string, login: string): number {
    return Math.max(
      this.byClient.retryAfterSeconds(client),
      this.byLogin.retryAfterSeconds(loginKey(client, login)),
    );
  }

  /**
   * Notes a check of the client's credentials under way; gives what to call when it ends. Its attempt
   * counts as failed meanwhile (recordFailure), so that parallel guesses see each other; a client then at
   * its limit only by checks under way is made to wait for them (checksUnderWay), not refused: they may
   * all succeed.
   */
  startCheck(client: string): () => void {
    let entry = this.checking.get(client);
    if (!entry) {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      this.checking.set(client, (entry = { count: 0, ended, end }));
    }
    entry.count += 1;
    const checking = entry;
    return () => {
      checking.count -= 1;
      if (checking.count > 0) return;
      this.checking.delete(client);
      checking.end();
    };
  }

  /** Settles once the client's checks under way have ended; undefined when none is. */
  checksUnderWay(client: string): Promise<void> | undefined {
    return this.checking.get(client)?.ended;
  }

  recordFailure(client: string, login: string): void {
    this.byClient.add(client);
    this.byLogin.add(loginKey(client, login));
  }

  /** Takes back one failure recorded for an attempt that then succeeded (or could not be checked). */
  withdrawFailure(client: string, login: string): void {
    this.byClient.remove(client);
    this.byLogin.remove(loginKey(client, login));
  }
}

/**
 * The key of an address and a login: the login is whatever the client sent, of any length, so it is
 * hashed to a fixed size (and not kept as text). An address holds no line break, so the pair is unambiguous.
 */
const loginKey = (client: string, login: string) =>
  createHash('sha256').update(`${client}\n${login}`).digest('base64url');

/**
 * Failures by key, each key counted over a fixed window from its first failure. At most `maxKeys` keys are
 * remembered, the oldest forgotten first, so a flood of keys (addresses, or logins sprayed from many
 * addresses) costs bounded memory and constant time per failure.
 */
class WindowCounts {
  private readonly counts = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys: number,
    private readonly now: () => number,
  ) {}

  /** Seconds until the key's window ends if it reached the limit, else 0. */
  retryAfterSeconds(key: string): number {
    const entry = this.current(key);
    if (!entry || entry.count < this.limit) return 0;
    return Math.ceil((entry.since + this.windowMs - this.now()) / 1000);
  }

  add(key: string): void {
    const entry = this.current(key) ?? { count: 0, since: this.now() };
    entry.count += 1;
    this.counts.set(key, entry);
    if (this.counts.size > this.maxKeys) this.forgetOldest();
  }

  remove(key: string): void {
    const entry = this.current(key);
    if (entry) entry.count = Math.max(0, entry.count - 1);
  }

  private current(key: string) {
    const entry = this.counts.get(key);
    if (entry && this.now() - entry.since >= this.windowMs) {
      this.counts.delete(key);
      return undefined;
    }
    return entry;
  }

  /**
   * A Map iterates in insertion order, and an entry is inserted when its window starts: the first one is
   * the oldest (expired, or the nearest to its end).
   */
  private forgetOldest(): void {
    for (const key of this.counts.keys()) {
      if (this.counts.size <= this.maxKeys) return;
      this.counts.delete(key);
    }
  }
}
