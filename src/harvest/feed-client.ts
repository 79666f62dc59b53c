import { Readable } from 'node:stream';
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

  /** The answer to a GET, its body read whole (within the timeout: one cut short is tried again). */
  async get(url: URL, accept = 'application/json'): Promise<FeedAnswer> {
    return this.tried(url, async () => {
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
   * starts; `close` must be called once it is read. No timeout on the body, which may take long; a
   * connection that breaks makes the stream fail.
   */
  async stream(url: URL, accept: string): Promise<FeedAnswer & { body: Readable; close(): void }> {
    return this.tried(url, async () => {
      await this.slot();
      const started = new AbortController();
      const timer = setTimeout(() => started.abort(), this.timeoutMs);
      try {
        const response = await this.fetch(url, accept, started.signal);
        clearTimeout(timer);
        const body = response.body ? Readable.fromWeb(response.body as WebReadableStream) : Readable.from([]);
        let closed = false;
        const close = () => {
          if (closed) return;
          closed = true;
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

  private fetch(url: URL, accept: string, signal: AbortSignal): Promise<Response> {
    return fetch(url, { headers: { ...this.headers, Accept: accept }, signal, redirect: 'follow' });
  }

  /** `attempt` until it answers other than a failure tried again, or `attempts` times. */
  private async tried<T extends FeedAnswer & { retryAfter: string | null; close?(): void }>(
    url: URL,
    attempt: () => Promise<T>,
  ): Promise<T> {
    let reason = '';
    for (let tried = 1; tried <= this.attempts; tried++) {
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
      if (tried < this.attempts) await sleep(Math.min(waitMs, MAX_RETRY_AFTER_MS));
    }
    throw new FeedUnreadable(url.href, `${reason}, ${this.attempts} times`);
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

/** Why a request failed, without its headers (credentials) or a stack. */
function failureOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'no answer in time';
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
