import type { Context, Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import type { Db } from 'mongodb';
import { Counter, Gauge, type Registry } from 'prom-client';
import { changesMarkedHere, directoryGeneration } from '../db/directory-generation.ts';
import { bodyEntityTag } from '../http/etag.ts';

/**
 * How long what a server keeps is served before the database is asked again whether the directory
 * changed: a change is served by every server sharing the database within this long of the import that
 * made it (and the time of a request in flight).
 */
export const FRESHNESS_MS = 250;

/**
 * How long an answer is kept at most, whatever the generation says: the bound on a change that moved no
 * generation (documents edited by hand, an import killed between its writes and its mark, a read from a
 * lagging secondary). The default Cache-Control lets clients keep an answer as long.
 */
export const KEPT_AT_MOST_MS = 60_000;

/** What a 200 of a record or a page was, to send again as it was. */
interface KeptResponse {
  body: Buffer | string;
  contentType: string;
  entityTag: string;
  lastModified: string;
}

/**
 * The directory's buffered answers (records and list pages, not streams), kept by URL in memory up to a
 * byte budget, least recently used first out, and all dropped when the directory changes: each request
 * makes sure the directory's generation (src/db/directory-generation.ts) was read within FRESHNESS_MS,
 * one read for all the requests of that time (and at once after a change marked by this process), and a
 * new generation drops everything. An answer is kept only if nothing was dropped while it was being read,
 * so a page read before an import's documents were written is never kept after the generation that
 * followed them was seen; none is kept longer than KEPT_AT_MOST_MS. Conditional requests are then answered
 * from it (the ETag middleware runs outside) without touching the database.
 */
export class ResponseCache {
  private readonly kept: LRUCache<string, KeptResponse>;
  /** The generation last read; undefined before the first read and after a failed one. */
  private generation: number | undefined;
  /** Moves on whenever everything is dropped. */
  private epoch = 0;
  /** When the last successful read of the generation was started, and the changes marked here by then. */
  private readAt = -Infinity;
  private markedHereAt = -1;
  private reading: Promise<void> | undefined;

  /** Counted here, published when scraped: a labelled counter's `inc` costs a request ~1 µs. */
  private hits = 0;
  private misses = 0;
  private readonly drops: Counter;

  constructor(
    private readonly db: Db,
    maxBytes: number,
    registry: Registry,
  ) {
    this.kept = new LRUCache({
      maxSize: maxBytes,
      // No single answer may take more than an eighth of the budget: a huge page would evict all the rest.
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
      ttl: KEPT_AT_MOST_MS,
      sizeCalculation: (response, url) => Buffer.byteLength(response.body) + url.length + 200,
    });
    const answers = { hit: () => this.hits, miss: () => this.misses };
    new Counter({
      name: 'hsds_kept_answers_total',
      help: 'GETs of records and list pages: sent as kept (hit), or read from the database (miss).',
      labelNames: ['outcome'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [outcome, count] of Object.entries(answers)) this.inc({ outcome }, count());
      },
    });
    this.drops = new Counter({
      name: 'hsds_kept_answers_dropped_total',
      help: 'Times every kept answer was dropped: the directory changed, or its generation could not be read.',
      registers: [registry],
    });
    const kept = this.kept;
    new Gauge({
      name: 'hsds_kept_answers_bytes',
      help: `Bytes of answers kept (HSDS_RESPONSE_CACHE_MB: at most ${maxBytes}).`,
      registers: [registry],
      collect() {
        this.set(kept.calculatedSize);
      },
    });
  }

  /** Answers a GET or HEAD from what is kept, else keeps what the handlers after it answer. */
  middleware(): Middleware {
    return async (ctx, next) => {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      // Read at once when current: an await costs each answer a turn of the microtask queue.
      const epoch = this.isCurrent() ? this.epoch : await this.current();
      const url = ctx.url;
      const kept = this.kept.get(url);
      if (kept) {
        this.hits++;
        return send(ctx, kept);
      }
      this.misses++;
      await next();
      if (ctx.status !== 200 || epoch !== this.epoch || ctx.state.freshUntil !== undefined) return;
      const entityTag = bodyEntityTag(ctx);
      if (entityTag === undefined) return; // a stream
      this.kept.set(url, {
        body: ownBytes(ctx.body as Buffer | string),
        contentType: ctx.response.get('Content-Type'),
        entityTag,
        lastModified: ctx.response.get('Last-Modified'),
      });
    };
  }

  /**
   * Reads the generation again unless a read started after `since` (a `performance.now()`): a client
   * that has just read the change feed, which publishes a change after its mark, then gets the changed
   * records, not what was kept of them.
   */
  async catchUp(since: number): Promise<void> {
    while (this.readAt < since) await (this.reading ??= this.readGeneration());
  }

  /**
   * The epoch to keep answers under, once the generation has been read recently enough and since the last
   * change marked here (a read already under way may have started before it: then another). Throws when
   * the generation cannot be read: the database's failure is the request's (a 503 at once).
   */
  private async current(): Promise<number> {
    while (!this.isCurrent()) await (this.reading ??= this.readGeneration());
    return this.epoch;
  }

  /** Whether the generation was read recently enough and since the last change marked here. */
  private isCurrent(): boolean {
    return performance.now() - this.readAt < FRESHNESS_MS && changesMarkedHere() === this.markedHereAt;
  }

  private async readGeneration(): Promise<void> {
    const startedAt = performance.now();
    const markedHere = changesMarkedHere();
    try {
      const generation = await directoryGeneration(this.db);
      if (generation !== this.generation) this.dropAll(generation);
      this.readAt = startedAt;
      this.markedHereAt = markedHere;
    } catch (error) {
      // The database cannot say whether the directory changed: nothing kept is vouched for.
      this.dropAll(undefined);
      throw error;
    } finally {
      this.reading = undefined;
    }
  }

  private dropAll(generation: number | undefined): void {
    if (this.generation !== undefined || this.kept.size > 0) this.drops.inc();
    this.kept.clear();
    this.generation = generation;
    this.epoch++;
  }
}

/**
 * The body as bytes of its own: a record's served form is a view into the driver's whole reply (up to 16
 * MiB, shared with other records) and a small page a slice of Node's buffer pool, which a kept view would
 * hold in memory uncounted.
 */
function ownBytes(body: Buffer | string): Buffer | string {
  if (typeof body === 'string' || body.byteLength === body.buffer.byteLength) return body;
  const own = Buffer.allocUnsafeSlow(body.byteLength);
  body.copy(own);
  return own;
}

function send(ctx: Context, kept: KeptResponse): void {
  // The type first: a body given without one has Koa look one up, to be replaced.
  ctx.set('Content-Type', kept.contentType);
  ctx.body = kept.body;
  if (kept.lastModified) ctx.set('Last-Modified', kept.lastModified);
  ctx.state.entityTag = kept.entityTag;
}
