import { createHash } from 'node:crypto';
import type { AnyBulkWriteOperation, Db } from 'mongodb';
import { documentCollection } from '../db/collections.ts';
import type { RecordType } from './record-type.ts';
import type { InputRecord } from './input-record.ts';
import type { Decomposition } from './decompose.ts';
import type { RowWrite } from './row.ts';
import { SOURCES } from '../db/source-records.ts';
import { linkFields } from './row-writer.ts';
import { entityKey } from '../hsds/entities.ts';

/**
 * Services given again exactly as before are recognised without parsing (an NDJSON line), validating,
 * planning or reading their rows: an aggregator reloads a region on a schedule, and most of its records
 * have not changed.
 *
 * A service document keeps, as `_input`, the fingerprint of the record whose import last composed it and
 * the document's `_hash` then. A service record whose fingerprint is that one, while the document's hash is
 * still that one, is the record that made the document as it is: nothing it says has been changed since
 * (a change to any of its rows, by any record or table, would have changed the document, which shows them
 * all), so applying it again would change nothing. Such a record is counted unchanged and skipped, unless
 * what the import writes around it reaches its document (below): then it applies as any other, so that
 * records still apply in the order given.
 *
 * Only service records: a service document shows every row of its record (an organization's does not
 * show its services).
 */

/** Changes what every fingerprint is, so that records fingerprinted by another version apply again. */
const FINGERPRINT_VERSION = '1';

/** What a service record given again must match to be skipped. */
export interface StoredInput {
  fingerprint: string;
  /** The document's `_hash` when that record composed it. */
  hash: string;
}

/** A service record that may be the one its document was composed from. */
export interface Candidate {
  /** The service's id. */
  id: string;
  fingerprint: string;
}

/**
 * The fingerprint of a record as given by a source: of its text when it has one (an NDJSON line, not parsed
 * yet), else of its JSON, and of the source's name (another source giving the same record applies it, so
 * that its row learns of that source too). None for a row of the tabular form (not a service record) or a record that could not be read.
 */
export function fingerprintOf(
  input: InputRecord,
  forcedType: RecordType | undefined,
  source: string,
): string | undefined {
  if (input.error !== undefined || input.entity !== undefined) return undefined;
  let json = input.text;
  try {
    json ??= JSON.stringify(input.value);
  } catch {
    return undefined; // nested too deep to serialize: validation rejects it
  }
  if (json === undefined) return undefined;
  return createHash('sha1')
    .update(`${FINGERPRINT_VERSION}\n${forcedType ?? input.type ?? ''}\n${source}\n`)
    .update(json)
    .digest('base64url');
}

interface StoredService {
  id: string;
  _input?: StoredInput;
  _hash?: string;
  _deps?: string[];
}

/**
 * The records skipped, by fingerprint: the service whose document the record made as it is, and what that
 * document depends on (a change reaching any of these ids reaches it).
 */
export type Skipped = Map<string, { id: string; deps: string[] }>;

/**
 * Of the records given by these fingerprints, those that made their service's document as it is, found by
 * fingerprint (indexed), none of whose documents depends on an id `unsettled` (changed by the import,
 * documents not rebuilt yet). Their text need not even be parsed.
 */
export async function unchangedCandidates(
  db: Db,
  fingerprints: string[],
  unsettled: (id: string) => boolean,
): Promise<Skipped> {
  const skipped: Skipped = new Map();
  if (fingerprints.length === 0) return skipped;
  const found = db
    .collection(documentCollection.service)
    .find(
      { '_input.fingerprint': { $in: [...new Set(fingerprints)] } },
      { projection: { _id: 0, id: 1, _input: 1, _hash: 1, _deps: 1 } },
    );
  for await (const document of found) {
    const { id, _input: input, _hash: hash, _deps: deps = [] } = document as unknown as StoredService;
    if (!input || input.hash !== hash || deps.some(unsettled)) continue;
    skipped.set(input.fingerprint, { id, deps });
  }
  return skipped;
}

/**
 * The records of a batch that no other record of the batch gives otherwise (by index in the batch): only
 * those may keep their fingerprint, since a record whose rows another one changed did not make its document
 * alone. Records sharing a row (a location, an organization) do not stand in each other's way when their
 * copies of it give the same result in either order.
 */
export function cleanRecords(batch: Decomposition[]): Set<number> {
  const copies = new Map<
    string,
    { first: RowWrite; distinct?: Map<string, RowWrite>; holders: Set<number>; differ: boolean }
  >();
  batch.forEach(({ rows }, at) => {
    for (const write of rows) {
      const key = entityKey(write.entity, write.row.id);
      const given = copies.get(key);
      if (!given) {
        copies.set(key, { first: write, holders: new Set([at]), differ: false });
        continue;
      }
      given.holders.add(at);
      if (given.differ) continue;
      // Each different copy once: a term or an organization many records give alike costs nothing more.
      given.distinct ??= new Map([[givenAs(given.first), given.first]]);
      const json = givenAs(write);
      if (given.distinct.has(json)) continue;
      if ([...given.distinct.values()].some((earlier) => conflicting(earlier, write))) given.differ = true;
      given.distinct.set(json, write);
    }
  });
  const unclean = new Set<number>();
  for (const { holders, differ } of copies.values()) if (differ) for (const at of holders) unclean.add(at);
  return new Set(batch.map((_decomposition, at) => at).filter((at) => !unclean.has(at)));
}

const givenAs = ({ mode, row }: RowWrite) => JSON.stringify([mode, row]);

/** Fields a replacement keeps from the row it replaces when it does not give them (row-writer.ts). */
const keptByReplacement = new Map(
  [...linkFields].map(([entity, links]) => [entity, new Set(['_id', '_position', SOURCES, ...links])]),
);

/**
 * Whether two copies of one row give another row in one order than in the other: a field both give
 * differently, or a field one gives that the other, replacing the row whole, leaves out (links to parents,
 * list positions and sources excepted: a replacement keeps those).
 */
function conflicting(a: RowWrite, b: RowWrite): boolean {
  const kept = keptByReplacement.get(a.entity) ?? new Set();
  const json = (value: unknown) => JSON.stringify(value);
  for (const [key, value] of Object.entries(a.row))
    if (key in b.row && json(value) !== json(b.row[key])) return true;
  const leftOut = (whole: RowWrite, other: RowWrite) =>
    whole.mode !== 'merge' && Object.keys(other.row).some((key) => !(key in whole.row) && !kept.has(key));
  return leftOut(a, b) || leftOut(b, a);
}

/**
 * Keeps with each document the fingerprint of the record that composed it alone in this batch, and the
 * document's hash now (once the batch's documents are rebuilt): a document written by the batch has it
 * already; one the record did not change gets it here, guarded by its hash, so that a document changed
 * meanwhile keeps none that matches.
 */
export async function stampInputs(
  db: Db,
  fingerprints: ReadonlyMap<string, string>,
  beforeWrite: () => Promise<void>,
): Promise<void> {
  if (fingerprints.size === 0) return;
  const collection = db.collection(documentCollection.service);
  const operations: AnyBulkWriteOperation[] = [];
  const stored = collection.find(
    { id: { $in: [...fingerprints.keys()] } },
    { projection: { _id: 0, id: 1, _hash: 1, _input: 1 } },
  );
  for await (const { id, _hash: hash, _input: input } of stored) {
    const fingerprint = fingerprints.get(id as string)!;
    const { fingerprint: had, hash: hadHash } = (input ?? {}) as Partial<StoredInput>;
    if (typeof hash !== 'string' || (had === fingerprint && hadHash === hash)) continue;
    operations.push({
      updateOne: { filter: { id, _hash: hash }, update: { $set: { _input: { fingerprint, hash } } } },
    });
  }
  if (operations.length === 0) return;
  await beforeWrite();
  await collection.bulkWrite(operations, { ordered: false });
}
