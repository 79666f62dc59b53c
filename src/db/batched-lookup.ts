import type { Collection, Document } from 'mongodb';

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

  constructor(
    private readonly collection: Collection,
    /** Must include `id`, by which each document found goes back to its lookups. */
    private readonly projection: Document,
  ) {}

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
      const filter = ids.length === 1 ? { id: ids[0] } : { id: { $in: ids } };
      const found = new Map<unknown, Document>();
      for (const document of await this.collection.find(filter, { projection: this.projection }).toArray())
        found.set(document.id, document);
      for (const [id, waiters] of waiting)
        for (const waiter of waiters) waiter.resolve(found.get(id) ?? null);
    } catch (error) {
      for (const waiters of waiting.values()) for (const waiter of waiters) waiter.reject(error);
    }
  }
}
