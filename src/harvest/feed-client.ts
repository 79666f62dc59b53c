import { pipeline, Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';

/** How a harvest asks another HSDS API for its pages. */
export interface FeedClientOptions {
  /** Sent with every request (credentials among them): never logged, never recorded. */
  headers?: Record<string, string>;
  /** Requests in flight at once, at most. */
  concurrency?: number;
  /** How long one request may take, its body included. */
  timeoutMs?: number;
  /** Attempts of one request before the feed counts as unreadable. */
  attempts?: number;
  /** The first wait before trying again, doubled each time (a `Retry-After` is honoured instead). */
  firstRetryMs?: number;
}

/** What a request answered: its status, media type and body text. */
export interface FeedAnswer {
  status: number;
  type: string;
  text: string;
}

/** A feed that did not answer, after every attempt: the harvest stops there, keeping what it loaded. */
export class FeedUnreadable extends Error {
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super(`${url}: ${reason}`);
    this.name = 'FeedUnreadable';
  }
}

/** Waits no longer than this for a `Retry-After`, whatever the feed asks. */
const MAX_RETRY_AFTER_MS = 120_000;

/**
 * A polite client of one feed: at most `concurrency` requests at once, each cut off after `timeoutMs`;
 * network errors, truncated bodies, 5xx, 408 and 429 are tried again after a growing wait (or the
 * `Retry-After` the feed gave), up to `attempts` times. Other answers (200, 404, 400…) are given as they
 * are: what they mean is the reader's to say.
 */
export class FeedClient {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly headers: Record<string, string>;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly firstRetryMs: number;

  constructor({
    headers = {},
    concurrency = 4,
    timeoutMs = 30_000,
    attempts = 5,
    firstRetryMs = 500,
  }: FeedClientOptions = {}) {
    this.headers = headers;
    this.concurrency = concurrency;
    this.timeoutMs = timeoutMs;
    this.attempts = attempts;
    this.firstRetryMs = firstRetryMs;
  }

  /**
   * The answer to a GET, its body read whole (within the timeout: one cut short is tried again); `once`:
   * a single attempt (a probe of what the feed offers).
   */
  async get(url: URL, accept = 'application/json', { once = false } = {}): Promise<FeedAnswer> {
    return this.tried(url, once ? 1 : this.attempts, async () => {
      await this.slot();
      try {
        const response = await this.fetch(url, accept, AbortSignal.timeout(this.timeoutMs));
        return { ...answerOf(response), text: await response.text() };
      } finally {
        this.release();
      }
    });
  }

  /**
   * The answer to a GET whose body is read as a stream (NDJSON of a whole feed): tried again until it
   * starts (`once`: a single attempt); `close` must be called once it is read. The body may take long,
   * but not stall: silent for the timeout, it fails, as does a connection that breaks.
   */
  async stream(
    url: URL,
    accept: string,
    { once = false } = {},
  ): Promise<FeedAnswer & { body: Readable; close(): void }> {
    return this.tried(url, once ? 1 : this.attempts, async () => {
      await this.slot();
      const started = new AbortController();
      const timer = setTimeout(() => started.abort(), this.timeoutMs);
      try {
        const response = await this.fetch(url, accept, started.signal);
        clearTimeout(timer);
        const received = response.body
          ? Readable.fromWeb(response.body as WebReadableStream)
          : Readable.from([]);
        const idle = setTimeout(() => received.destroy(new Error('the stream stalled')), this.timeoutMs);
        const body = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            idle.refresh();
            done(null, chunk);
          },
        });
        // A failure of either ends both: the reader sees the stream fail.
        pipeline(received, body, () => clearTimeout(idle));
        let closed = false;
        const close = () => {
          if (closed) return;
          closed = true;
          clearTimeout(idle);
          body.destroy();
          this.release();
        };

        return { ...answerOf(response), text: '', body, close };
      } catch (error) {
        clearTimeout(timer);
        this.release();
        throw error;
      }
    });
  }

  /**
   * A GET, following redirects within the feed's origin only: its headers (credentials) must not reach
   * another host, which fetch would send them to (all but Authorization and Cookie).
   */
  private async fetch(url: URL, accept: string, signal: AbortSignal): Promise<Response> {
    let at = url;
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(at, {
        headers: { ...this.headers, Accept: accept },
        signal,
        redirect: 'manual',
      });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      await response.body?.cancel();
      const next = new URL(location, at);
      if (next.origin !== url.origin) throw new Error(`redirected to another origin (${next.origin})`);
      if (redirects === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      at = next;
    }
  }

  /** `attempt` until it answers other than a failure tried again, or `attempts` times. */
  private async tried<T extends FeedAnswer & { retryAfter: string | null; close?(): void }>(
    url: URL,
    attempts: number,
    attempt: () => Promise<T>,
  ): Promise<T> {
    let reason = '';
    for (let tried = 1; tried <= attempts; tried++) {
      let waitMs = this.firstRetryMs * 2 ** (tried - 1);
      const answer = await attempt().catch((error: unknown) => {
        reason = failureOf(error);
        return undefined;
      });
      if (answer) {
        if (!RETRIED.has(answer.status) && answer.status < 500) return answer;
        answer.close?.();
        reason = `answered ${answer.status}`;
        waitMs = retryAfterMs(answer.retryAfter) ?? waitMs;
      }
      if (tried < attempts) await sleep(Math.min(waitMs, MAX_RETRY_AFTER_MS));
    }
    throw new FeedUnreadable(url.href, attempts === 1 ? reason : `${reason}, ${attempts} times`);
  }

  /** Resolves once fewer than `concurrency` requests are in flight, taking a place among them. */
  private async slot(): Promise<void> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}

function answerOf(response: Response) {
  return {
    status: response.status,
    type: (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase(),
    retryAfter: response.headers.get('retry-after'),
  };
}

const RETRIED = new Set([408, 429]);

/** A `Retry-After` in seconds or as an HTTP date, in milliseconds from now. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * Why a request failed, without its headers (credentials) or a stack: fetch's own errors (a TypeError
 * without a cause: a header value it refuses, quoted in its message) are told in fixed words.
 */
function failureOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'no answer in time';
  if (cause) return cause.code ?? cause.message ?? 'the connection failed';
  if (error instanceof TypeError) return 'the request could not be made';
  return (error as Error).message;
}

const MAX_REDIRECTS = 5;
