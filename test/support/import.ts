import { Readable } from 'node:stream';
import type { Db } from 'mongodb';
import { importRecords, type ImportOptions } from '../../src/ingest/import.ts';
import type { ImportReport } from '../../src/ingest/report.ts';
import { readNdjson } from '../../src/ingest/sources/ndjson.ts';

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
