import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { CHANGE_CLOCK, CHANGES } from './collections.ts';
import { chunked } from '../async-iterables.ts';
import { markDirectoryChanged } from './directory-generation.ts';
import { retentionCutoff } from './tombstones.ts';

/** What a change did to a served record: it is served as it now reads (`upsert`), or no longer (`delete`). */
export type ChangeOp = 'upsert' | 'delete';

/** A change to one served record. */
export interface Change {
  /** The record's collection, which is also its path: `services`, `organizations`, … */
  resource: string;
  id: string;
  op: ChangeOp;
}

/** A change as stored: `_id` is its place in commit order. */
interface StoredChange extends Change {
  _id: number;
  changed_at: Date;
  source?: string;
}

/** A change as the feed serves it: `cursor` is what a client passes as `after` to read on from it. */
export interface FeedLine extends Change {
  cursor: string;
  changed_at: string;
  source?: string;
}

/**
 * The feed's one clock document. Writers (one at a time: the import lease) take places from `last`, write
 * their entries, then the documents, then publish; readers see only what is published, so a change is in
 * the feed only once the documents it names have landed, and never out of order.
 */
interface Clock {
  _id: 'feed';
  /** Tells this feed's cursors from those of another database (one made anew, or restored elsewhere). */
  epoch: string;
  /** The last place taken. */
  last: number;
  /** Places up to this one are served. */
  published: number;
  /** Deletions up to this place were dropped past their retention: a cursor before it missed some. */
  horizon: number;
}

const CLOCK_ID = 'feed';
const clocks = (db: Db) => db.collection<Clock>(CHANGE_CLOCK);
const changes = (db: Db) => db.collection<StoredChange>(CHANGES);

/** The places a write took, for publishing and compacting once its documents have landed. */
export interface RecordedChanges {
  first: number;
  last: number;
}

/**
 * Records changes before the documents they name are written: taken in order, unseen until published.
 * A writer that dies in between leaves them unpublished; the import that finishes its pending changes
 * writes the documents (recording those changes again) and publishes everything taken before.
 */
export async function recordChanges(
  db: Db,
  recorded: readonly Change[],
  { at, source }: { at: Date; source: string | undefined },
): Promise<RecordedChanges | undefined> {
  if (recorded.length === 0) return undefined;
  const clock = await clocks(db).findOneAndUpdate(
    { _id: CLOCK_ID },
    {
      $inc: { last: recorded.length },
      $setOnInsert: { epoch: randomBytes(4).toString('hex'), published: 0, horizon: 0 },
    },
    { upsert: true, returnDocument: 'after' },
  );
  const last = clock!.last;
  const first = last - recorded.length + 1;
  // A clock made just now, with entries already there: those are of a feed whose clock was lost, and
  // their places would be taken again. The new feed (a new epoch) starts empty; a rebuild lists it whole.
  if (first === 1) await changes(db).deleteMany({});
  await changes(db).insertMany(
    recorded.map((change, index) => ({
      _id: first + index,
      ...change,
      changed_at: at,
      ...(source === undefined ? {} : { source }),
    })),
    { ordered: false },
  );
  return { first, last };
}

/** Publishes every place taken up to `through`: called once the documents are written. */
export async function publishChanges(db: Db, through: number): Promise<void> {
  await clocks(db).updateOne({ _id: CLOCK_ID }, { $max: { published: through } });
}

/**
 * Settles what a writer that stopped (killed, its lease lost) recorded and did not publish, before the
 * next writer publishes anything: an entry its documents contradict is dropped (an upsert of a record not
 * served, a delete of one still served), since the documents it was to write may never be; the others are
 * published. Whatever the writer did write is then in the feed; what it did not, the import that finishes
 * its pending changes records again when it writes it. Called by the writer holding the import lease.
 */
export async function settleUnpublished(db: Db, beforeSettling?: () => Promise<void>): Promise<void> {
  const clock = await clocks(db).findOne({ _id: CLOCK_ID });
  if (!clock || clock.last <= clock.published) return;
  // Only when there is something to settle: a writer confirms its lease before it writes.
  await beforeSettling?.();
  const unpublished = changes(db)
    .find({ _id: { $gt: clock.published, $lte: clock.last } })
    .sort({ _id: 1 })
    .batchSize(SETTLED_TOGETHER);
  for await (const batch of chunked(unpublished, SETTLED_TOGETHER)) {
    const contradicted: number[] = [];
    for (const [resource, entries] of byResource(batch)) {
      const served = new Set<string>();
      const found = db
        .collection(resource)
        .find({ id: { $in: entries.map((entry) => entry.id) } }, { projection: { _id: 0, id: 1 } });
      for await (const { id } of found) served.add(id as string);
      for (const entry of entries)
        if (served.has(entry.id) !== (entry.op === 'upsert')) contradicted.push(entry._id);
    }
    if (contradicted.length > 0) await changes(db).deleteMany({ _id: { $in: contradicted } });
  }
  // The stopped writer may have written documents and not marked them: caches must drop what they kept.
  await markDirectoryChanged(db);
  await publishChanges(db, clock.last);
}

const SETTLED_TOGETHER = 1_000;

/**
 * Drops the earlier entries of the records a published write changed: each record keeps its latest
 * entry, so the feed read from the start lists each served record once (its last upsert), and stays the
 * size of the directory plus its recent deletions. A client past an entry dropped here will read the
 * later one.
 */
export async function compactChanges(db: Db, first: number, recorded: readonly Change[]): Promise<void> {
  for (const [resource, entries] of byResource(recorded)) {
    const ids = entries.map((entry) => entry.id);
    await changes(db).deleteMany({ resource, id: { $in: ids }, _id: { $lt: first } });
  }
}

/** Changes grouped by the collection of their records. */
function byResource<T extends Change>(entries: readonly T[]): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const entry of entries) {
    if (!grouped.has(entry.resource)) grouped.set(entry.resource, []);
    grouped.get(entry.resource)!.push(entry);
  }
  return grouped;
}

/** The ids among `ids` of records of `resource` the feed has no entry for. */
export async function unlistedIds(db: Db, resource: string, ids: readonly string[]): Promise<Set<string>> {
  const unlisted = new Set(ids);
  const listed = changes(db).find({ resource, id: { $in: [...ids] } }, { projection: { _id: 0, id: 1 } });
  for await (const { id } of listed) unlisted.delete(id);
  return unlisted;
}

/**
 * Drops deletions older than `days` days. The horizon moves past those expired now, so that a client whose
 * cursor is before one is told it missed it (410) rather than never learning of it; those the previous
 * purge put behind the horizon are dropped, not these, so that a read that checked its cursor against the
 * horizon just before this purge still finds every entry after it.
 */
export async function purgeChanges(db: Db, days: number): Promise<void> {
  const clock = await clocks(db).findOne({ _id: CLOCK_ID });
  if (!clock) return;
  const expired = { op: 'delete' as const, changed_at: { $lt: retentionCutoff(days) } };
  await changes(db).deleteMany({ ...expired, _id: { $lte: clock.horizon } });
  const newest = await changes(db).findOne(expired, { sort: { _id: -1 }, projection: { _id: 1 } });
  if (newest) await clocks(db).updateOne({ _id: CLOCK_ID }, { $max: { horizon: newest._id } });
}

/** A place in one feed, as a cursor names it. */
export interface FeedPosition {
  epoch: string;
  place: number;
}

const CURSOR = /^([0-9a-f]{8})\.(\d{1,15})$/;

export const cursorOf = ({ epoch, place }: FeedPosition) => `${epoch}.${place}`;

/** The position a cursor names; undefined when it is not a cursor at all. */
export function parseCursor(cursor: string): FeedPosition | undefined {
  const match = CURSOR.exec(cursor);
  return match ? { epoch: match[1]!, place: Number(match[2]) } : undefined;
}

/** A cursor this feed can no longer answer: the client must read the feed again from its start. */
export class CursorGone extends Error {
  constructor(
    reason: string,
    /** The oldest cursor still answered, when the feed has one. */
    readonly oldest: string | undefined,
  ) {
    super(reason);
    this.name = 'CursorGone';
  }
}

/** The published places after a position: (`after`, `through`]. */
export interface FeedRange {
  epoch: string;
  after: number;
  through: number;
}

/** The published range after `from` (from the start when not given); throws `CursorGone`. */
export async function feedRange(db: Db, from: FeedPosition | undefined): Promise<FeedRange> {
  const clock = await clocks(db).findOne({ _id: CLOCK_ID });
  if (from === undefined) return { epoch: clock?.epoch ?? '', after: 0, through: clock?.published ?? 0 };
  const oldest = clock ? cursorOf({ epoch: clock.epoch, place: clock.horizon }) : undefined;
  if (!clock || from.epoch !== clock.epoch)
    throw new CursorGone('the cursor is of another feed (the database was made anew)', oldest);
  if (from.place > clock.published)
    throw new CursorGone('the cursor is ahead of the feed (the database was restored from a copy)', oldest);
  if (from.place < clock.horizon)
    throw new CursorGone('deletions after the cursor were dropped, past their retention', oldest);
  return { epoch: clock.epoch, after: from.place, through: clock.published };
}

/** Up to `limit` changes of a range, in commit order. */
export async function* changesIn(db: Db, range: FeedRange, limit: number): AsyncGenerator<FeedLine> {
  if (range.through <= range.after) return;
  const found = changes(db)
    .find({ _id: { $gt: range.after, $lte: range.through } })
    .sort({ _id: 1 })
    .limit(limit);
  for await (const { _id, resource, id, op, changed_at, source } of found) {
    yield {
      cursor: cursorOf({ epoch: range.epoch, place: _id }),
      resource,
      id,
      op,
      changed_at: changed_at.toISOString(),
      ...(source === undefined ? {} : { source }),
    };
  }
}
