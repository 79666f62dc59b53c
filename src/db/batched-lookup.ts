import { MongoNetworkError, type Collection, type Db, type Document } from 'mongodb';
import { isDatabaseUnavailable } from './unavailable.ts';

/** Ids looked up in one query at most; more waiting at once are split over several queries. */
const MAX_IDS_PER_QUERY = 256;

interface Waiter {
  resolve(document: Document | null): void;
  reject(error: unknown): void;
}

/**
 * Looks documents up by `id`, coalescing concurrent lookups: the ids asked for while the event loop
 * handles one round of I/O (the requests that arrived together) are read with one indexed query,
 * `{id: {$in: [...]}}`, once that round is over. Under load this turns many round trips to the database
 * into a few, with no caching: every lookup sees the document as stored when it is read. Alone, a lookup
 * is one query as before, a turn of the event loop later.
 */
export class BatchedLookup {
  private waiting = new Map<string, Waiter[]>();
  private readonly collection: Collection;

  constructor(
    private readonly db: Db,
    collectionName: string,
    /** Must include `id`, by which each document found goes back to its lookups. */
    private readonly projection: Document,
  ) {
    this.collection = db.collection(collectionName);
  }

  /** The document with this `id` (with the projection's fields), or null when there is none. */
  find(id: string): Promise<Document | null> {
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) setImmediate(() => this.flush());
      const waiters = this.waiting.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(id, [{ resolve, reject }]);
    });
  }

  private flush(): void {
    const waiting = [...this.waiting];
    this.waiting = new Map();
    for (let start = 0; start < waiting.length; start += MAX_IDS_PER_QUERY) {
      void this.read(new Map(waiting.slice(start, start + MAX_IDS_PER_QUERY)));
    }
  }

  private async read(waiting: Map<string, Waiter[]>): Promise<void> {
    try {
      const ids = [...waiting.keys()];
      const found = new Map<unknown, Document>();
      for (const document of await this.firstBatch(ids)) found.set(document.id, document);
      // One document always fits in a first batch; of several, those past 16 MiB are left out of it. The
      // ids not found are read again through a cursor, which follows every batch: none, unless absent.
      const missing = ids.length > 1 ? ids.filter((id) => !found.has(id)) : [];
      if (missing.length > 0)
        for (const document of await this.cursorRead(missing)) found.set(document.id, document);
      for (const [id, waiters] of waiting)
        for (const waiter of waiters) waiter.resolve(found.get(id) ?? null);
    } catch (error) {
      for (const waiters of waiting.values()) for (const waiter of waiters) waiter.reject(error);
    }
  }

  /**
   * The first batch of the query, as the `find` command gives it, with the server closing its cursor
   * (`singleBatch`): the driver's cursor machinery cost about a tenth of the app's CPU per record served.
   * The collection's read preference and read concern apply as they would to a cursor. A failure is read
   * again through a cursor, which retries reads as the driver does (a command is not retried), except when
   * no server can be reached: the cursor would only wait as long again.
   */
  private async firstBatch(ids: string[]): Promise<Document[]> {
    const { readConcern, readPreference } = this.collection;
    try {
      const reply = await this.db.command(
        {
          find: this.collection.collectionName,
          filter: filterOf(ids),
          projection: this.projection,
          batchSize: ids.length,
          singleBatch: true,
          ...(readConcern ? { readConcern: readConcern.toJSON() } : {}),
        },
        { readPreference },
      );
      return (reply.cursor as { firstBatch: Document[] }).firstBatch;
    } catch (error) {
      if (isDatabaseUnavailable(error) && !(error instanceof MongoNetworkError)) throw error;
      return this.cursorRead(ids);
    }
  }

  private cursorRead(ids: string[]): Promise<Document[]> {
    return this.collection.find(filterOf(ids), { projection: this.projection }).toArray();
  }
}

const filterOf = (ids: string[]) => (ids.length === 1 ? { id: ids[0] } : { id: { $in: ids } });
