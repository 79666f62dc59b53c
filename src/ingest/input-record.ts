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
  /**
   * The record's JSON text, not parsed yet (an NDJSON line): parsed when it is validated, and only then, so
   * that a record given again unchanged is recognised from its text alone (unchanged-records.ts).
   */
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
  /**
   * Not a record: something the report should tell that casts no doubt on the input being whole (HSDS's
   * table describing a package's tables, not read), unlike a `notice`.
   */
  remark?: string;
  /**
   * Not a record: the input's list of this type was not read (a feed's optional endpoint answering that it
   * is not offered), so a replace takes none of the source's records of this type for missing.
   */
  unreadList?: RecordType;
}

export function describeSource(source: RecordSource): string {
  if (source.line !== undefined) return `${source.file}:${source.line}`;
  if (source.row !== undefined) return `${source.file} row ${source.row}`;
  if (source.index !== undefined) return `${source.file} [${source.index}]`;
  return source.file;
}

/** The record with its text parsed, if it has one not parsed yet: `error` when that is not JSON. */
export function parsedRecord(input: InputRecord): InputRecord {
  if (input.text === undefined || input.value !== undefined || input.error !== undefined) return input;
  try {
    return { ...input, value: JSON.parse(input.text) };
  } catch (error) {
    return { ...input, error: `not valid JSON: ${(error as Error).message}` };
  }
}
