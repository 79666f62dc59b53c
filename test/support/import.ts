import { serviceNdjsonChunks } from '../../scripts/generator/ndjson-chunks.ts';
import { Readable } from 'node:stream';
import { EJSON } from 'bson';
import type { Db, Document } from 'mongodb';
import { documentCollection } from '../../src/db/collections.ts';
import { rootEntities } from '../../src/hsds/entities.ts';
import { importRecords, type ImportOptions } from '../../src/ingest/import.ts';
import type { ImportReport } from '../../src/ingest/report.ts';
import { readNdjson } from '../../src/ingest/sources/ndjson.ts';
import { servedServices, storedService } from '../../src/db/spliced-organization.ts';
import { splicedRecords } from '../../src/db/spliced-service.ts';

/** Imports records given as objects (or raw lines) through the real NDJSON reader. */
export function importLines(
  db: Db,
  lines: (object | string)[],
  options: ImportOptions = {},
): Promise<ImportReport> {
  const text = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');
  return importRecords(db, readNdjson(Readable.from([text]), 'input.ndjson'), options);
}

/** A served document as the API would show it: without the fields kept for queries and bookkeeping. */
export function served<T extends Record<string, unknown> | null>(document: T): T {
  if (!document) return document;
  return Object.fromEntries(Object.entries(document).filter(([key]) => !key.startsWith('_'))) as T;
}

/**
 * A record as `GET /{resource}/{id}` serves it, read from its stored document through the served forms
 * (a service's with its organization spliced in, a service at location's with its service); null when none
 * is stored.
 */
export async function servedRecord(db: Db, collection: string, id: string): Promise<Document | null> {
  const stored = await db.collection(collection).findOne({ id });
  if (!stored) return null;
  // An organization's `_json` leaves out its services, which its endpoint joins.
  if (stored._json === undefined || collection === documentCollection.organization) return served(stored);
  const [pieces] =
    collection === documentCollection.service_at_location
      ? await splicedRecords(db, [stored])
      : await servedServices(db, [storedService(stored)]);
  return JSON.parse(Buffer.concat(pieces!).toString('utf8')) as Document;
}

/**
 * Every stored document of every served collection, by collection and in id order, as stored (derived
 * fields and served forms too), in extended JSON: served forms compare as base64 text, not byte by byte.
 */
export async function storedDirectory(db: Db): Promise<Record<string, Document[]>> {
  const all: Record<string, Document[]> = {};
  for (const root of rootEntities) {
    const collection = documentCollection[root];
    const stored = await db
      .collection(collection)
      .find({}, { projection: { _id: 0 } })
      .sort({ id: 1 })
      .toArray();
    all[collection] = stored.map((document) => EJSON.serialize(document));
  }
  return all;
}

/** Every served document's id and content hash: equal maps mean equal directories. */
export async function servedHashes(db: Db): Promise<Record<string, Record<string, string>>> {
  const result: Record<string, Record<string, string>> = {};
  for (const name of ['services', 'organizations', 'service_at_locations', 'taxonomies', 'taxonomy_terms']) {
    const documents = await db
      .collection(name)
      .find({}, { projection: { _id: 0, id: 1, _hash: 1 } })
      .toArray();
    result[name] = Object.fromEntries(documents.map((document) => [document.id, document._hash]));
  }
  return result;
}

/**
 * Generated services as NDJSON lines with three records validation rejects, put at the given lines: one
 * whose id is not a UUID, one that is not JSON, and one whose status is not in HSDS's code list.
 */
export function linesWithRejections(
  count: number,
  seed: number,
  [badId, unreadable, badStatus]: [number, number, number],
): string[] {
  const lines = [...serviceNdjsonChunks(count, seed)].join('').trim().split('\n');
  lines.splice(badId, 0, '{"id": "not a uuid", "name": "Broken"}');
  lines.splice(unreadable, 0, '{"id": ');
  lines.splice(badStatus, 1, lines[badStatus]!.replace('"status":"', '"status":"closing-'));
  return lines;
}
