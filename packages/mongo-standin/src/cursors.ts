import { Long, type Document } from 'bson';
import { encodingOf } from './document-encoding.ts';
import { randomBytes } from 'node:crypto';
import { cursorNotFound } from './errors.ts';
import { MAX_BSON_OBJECT_SIZE } from './limits.ts';

/** MongoDB's cap on a reply batch, so that the whole reply stays under the 16 MiB BSON limit. */
const MAX_BATCH_BYTES = MAX_BSON_OBJECT_SIZE - 64 * 1024;
/** First batches hold 101 documents unless the client asks otherwise (find and aggregate alike). */
export const DEFAULT_FIRST_BATCH_SIZE = 101;
/**
 * At most this much is read ahead for a cursor (see readAhead): what a client that walks away without
 * closing its cursor leaves held until the idle timeout. The app's batches are about a megabyte.
 */
const READ_AHEAD_BYTES = 4 * 1024 * 1024;
/** cursorTimeoutMillis default of mongod. */
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;

export type Projector = (doc: Document) => Document;

interface ServerCursor {
  namespace: string;
  /** The results not handed out yet, read as they are asked for. */
  docs: Iterator<Document>;
  /** The next result, read ahead to know whether there is one. */
  next: IteratorResult<Document>;
  project: Projector;
  lastUsed: number;
  /**
   * Results read for the next batch while the client takes the last one (see readAhead), or what reading
   * them threw, thrown by the next getMore.
   */
  ahead: Document[] | { failed: unknown } | null;
  reading: NodeJS.Immediate | null;
}

export interface CursorReply {
  cursor: { id: Long; ns: string; firstBatch?: Document[]; nextBatch?: Document[] };
  ok: 1;
}

/** Server-side cursors: a query's results, handed out in batches through getMore. */
export class CursorRegistry {
  private readonly cursors = new Map<bigint, ServerCursor>();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.closeIdle(Date.now()), 60_000);
    this.sweeper.unref();
  }

  /**
   * Answers a find/aggregate/list command: the first batch, and a cursor for the rest unless it all fit
   * or the client asked for a single batch.
   */
  open(
    namespace: string,
    results: Iterable<Document>,
    options: { batchSize?: number; singleBatch?: boolean; project?: Projector },
  ): CursorReply {
    const docs = results[Symbol.iterator]();
    const cursor: ServerCursor = {
      namespace,
      docs,
      next: docs.next(),
      project: options.project ?? ((doc) => doc),
      lastUsed: Date.now(),
      ahead: null,
      reading: null,
    };
    const firstBatch = takeBatch(cursor, options.batchSize ?? DEFAULT_FIRST_BATCH_SIZE);
    let id = 0n;
    if (!options.singleBatch && !cursor.next.done) {
      id = newCursorId();
      this.cursors.set(id, cursor);
      if (options.batchSize) readAhead(cursor, options.batchSize);
    } else {
      release(cursor);
    }
    return { cursor: { id: Long.fromBigInt(id), ns: namespace, firstBatch }, ok: 1 };
  }

  getMore(id: bigint, namespace: string, batchSize: number | undefined): CursorReply {
    const cursor = this.cursors.get(id);
    if (!cursor || cursor.namespace !== namespace) throw cursorNotFound(id);
    cursor.lastUsed = Date.now();
    let nextBatch: Document[];
    try {
      nextBatch = takeBatch(cursor, batchSize ?? Number.MAX_SAFE_INTEGER);
    } catch (error) {
      // As MongoDB's: a cursor whose getMore fails is gone.
      this.remove(id);
      throw error;
    }
    const exhausted = cursor.next.done === true && cursor.ahead === null;
    if (exhausted) this.cursors.delete(id);
    else if (batchSize) readAhead(cursor, batchSize);
    return { cursor: { id: Long.fromBigInt(exhausted ? 0n : id), ns: namespace, nextBatch }, ok: 1 };
  }

  kill(ids: bigint[]): { killed: bigint[]; notFound: bigint[] } {
    const killed: bigint[] = [];
    const notFound: bigint[] = [];
    for (const id of ids) (this.remove(id) ? killed : notFound).push(id);
    return { killed, notFound };
  }

  /**
   * Ends the cursors reading a collection (`namespace`, `db.collection`) or any collection of a database
   * (`db.`), before it or its indexes are dropped: a dropped table must not be read again, by a getMore or
   * a read ahead (LMDB would read freed pages). Their getMore then fails with CursorNotFound.
   */
  killReading(namespace: string): void {
    for (const [id, cursor] of this.cursors)
      if (namespace.endsWith('.') ? cursor.namespace.startsWith(namespace) : cursor.namespace === namespace)
        this.remove(id);
  }

  get openCount(): number {
    return this.cursors.size;
  }

  closeIdle(now: number): void {
    for (const [id, cursor] of this.cursors) if (now - cursor.lastUsed > IDLE_TIMEOUT_MS) this.remove(id);
  }

  private remove(id: bigint): boolean {
    const cursor = this.cursors.get(id);
    if (!cursor) return false;
    this.cursors.delete(id);
    release(cursor);
    return true;
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const id of [...this.cursors.keys()]) this.remove(id);
  }
}

/**
 * Reads the cursor's next batch (of `batchSize`, as the last asked for: only a client that says how many
 * it takes at a time has one read ahead) once the reply now being sent is written, so that the stand-in
 * reads it while the client decodes and uses this one instead of waiting for its getMore: the two take
 * turns otherwise, and a stream runs at the pace of both added up. One batch is read ahead at most (up to
 * READ_AHEAD_BYTES), kept until the next getMore or the cursor's end. Its documents are as they were when
 * it was read: a document changed or deleted before the getMore is given as it was, where mongod reads it
 * at the getMore, unless its plan had read it earlier (a blocking sort reads everything at the first batch:
 * MongoDB's cursors are not isolated, and promise no view of the data as of each getMore).
 */
function readAhead(cursor: ServerCursor, batchSize: number): void {
  if (cursor.next.done || cursor.ahead !== null || cursor.reading !== null) return;
  cursor.reading = setImmediate(() => {
    cursor.reading = null;
    try {
      cursor.ahead = readBatch(cursor, batchSize, [], READ_AHEAD_BYTES);
    } catch (failed) {
      cursor.ahead = { failed };
    }
  });
}

/** The cursor's next batch of `batchSize`: what was read ahead, as much of it as asked for, then read now. */
function takeBatch(cursor: ServerCursor, batchSize: number): Document[] {
  if (cursor.reading !== null) {
    clearImmediate(cursor.reading);
    cursor.reading = null;
  }
  const ahead = cursor.ahead;
  cursor.ahead = null;
  if (ahead === null) return readBatch(cursor, batchSize);
  if (!Array.isArray(ahead)) throw ahead.failed;
  if (ahead.length >= batchSize) {
    if (ahead.length > batchSize) cursor.ahead = ahead.slice(batchSize);
    return ahead.slice(0, batchSize);
  }
  return readBatch(cursor, batchSize, ahead);
}

/** Results read to fill `batch` up to `batchSize`, within `maxBytes` (the reply's size limit). */
function readBatch(
  cursor: ServerCursor,
  batchSize: number,
  batch: Document[] = [],
  maxBytes = MAX_BATCH_BYTES,
): Document[] {
  let bytes = batch.reduce((sum, doc) => sum + encodingOf(doc).length, 0);
  while (batch.length < batchSize && !cursor.next.done) {
    const doc = cursor.project(cursor.next.value);
    const size = encodingOf(doc).length;
    if (batch.length > 0 && bytes + size > maxBytes) break;
    batch.push(doc);
    bytes += size;
    cursor.next = cursor.docs.next();
  }
  return batch;
}

/** Ends a cursor's reading (a storage walk left part-way holds a read position until then). */
function release(cursor: ServerCursor): void {
  if (cursor.reading !== null) clearImmediate(cursor.reading);
  cursor.ahead = null;
  cursor.docs.return?.();
}

/**
 * A random positive 63-bit id, at least 2^62: never 0 (which means "no cursor"), nor below 2^53, which the
 * driver gives a client as a JavaScript number (`promoteLongs`), which getMore and killCursors then refuse
 * as not a long (one id in a thousand was).
 */
function newCursorId(): bigint {
  return (randomBytes(8).readBigInt64LE() & 0x3fffffffffffffffn) | 0x4000000000000000n;
}
