import { MongoNetworkError, MongoServerError, type Collection, type Db, type Document } from 'mongodb';

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
      const batch = await this.firstBatch(ids);
      for (const document of batch) found.set(document.id, document);
      // A first batch holds at least one document, and of several, those that fit in 16 MiB: when some
      // were found and some not, the rest are read through a cursor, which follows every batch. (An id that
      // matches nothing, beside ones that do, costs that second query.)
      const missing = batch.length > 0 ? ids.filter((id) => !found.has(id)) : [];
      if (missing.length > 0)
        for (const document of await this.collection
          .find(filterOf(missing), { projection: this.projection })
          .toArray())
          found.set(document.id, document);
      for (const [id, waiters] of waiting)
        for (const waiter of waiters) waiter.resolve(found.get(id) ?? null);
    } catch (error) {
      for (const waiters of waiting.values()) for (const waiter of waiters) waiter.reject(error);
    }
  }

  /**
   * The first batch of the query, as the `find` command gives it, with the server closing its cursor
   * (`singleBatch`): the driver's cursor machinery cost about a tenth of the app's CPU per record served.
   * The collection's read preference, read concern and BSON options apply as they would to a cursor, and a
   * failure the driver would retry a read on is tried once more (it does not retry commands).
   */
  private async firstBatch(ids: string[]): Promise<Document[]> {
    const { readConcern, readPreference, bsonOptions } = this.collection;
    const command = {
      find: this.collection.collectionName,
      filter: filterOf(ids),
      projection: this.projection,
      batchSize: ids.length,
      singleBatch: true,
      ...(readConcern ? { readConcern: readConcern.toJSON() } : {}),
    };
    const run = async () =>
      (
        (await this.db.command(command, { ...bsonOptions, readPreference })).cursor as {
          firstBatch: Document[];
        }
      ).firstBatch;
    try {
      return await run();
    } catch (error) {
      if (this.db.client.options.retryReads === false || !isRetryableRead(error)) throw error;
      return await run();
    }
  }
}

/** The errors the driver retries a read on once: network errors and these server error codes. */
const RETRYABLE_READ_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  134, // ReadConcernMajorityNotAvailableYet
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

const isRetryableRead = (error: unknown) =>
  error instanceof MongoNetworkError ||
  (error instanceof MongoServerError &&
    typeof error.code === 'number' &&
    RETRYABLE_READ_CODES.has(error.code));

const filterOf = (ids: string[]) => (ids.length === 1 ? { id: ids[0] } : { id: { $in: ids } });
