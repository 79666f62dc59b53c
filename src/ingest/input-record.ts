import type { EntityType } from '../hsds/entities.ts';
import type { RecordType } from './record-type.ts';

/** Where a record came from, so a rejection can point at it. */
export interface RecordSource {
  file: string;
  /** 1-based line of an NDJSON file. */
  line?: number;
  /** 0-based position in a JSON array. */
  index?: number;
  /** 1-based data row of a CSV table (the header is row 0). */
  row?: number;
}

/** One record read from an input, not yet validated; `error` when it could not even be read. */
export interface InputRecord {
  source: RecordSource;
  value?: unknown;
  /** The JSON text `value` was read from, when it was a text of its own (an NDJSON line). */
  text?: string;
  /** The type the input declares (a CSV table, a `--type`), else detected from the shape. */
  type?: RecordType;
  /** Set for a row of the tabular form: one entity's own fields and foreign keys, nothing nested. */
  entity?: EntityType;
  /** A tabular-form row's table columns: a cell left empty clears its field, a column not there does not. */
  columns?: readonly string[];
  error?: string;
  /** Not a record but something about the input the report should tell (a table left unread). */
  notice?: string;
}

export function describeSource(source: RecordSource): string {
  if (source.line !== undefined) return `${source.file}:${source.line}`;
  if (source.row !== undefined) return `${source.file} row ${source.row}`;
  if (source.index !== undefined) return `${source.file} [${source.index}]`;
  return source.file;
}
