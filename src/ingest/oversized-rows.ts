import { calculateObjectSize } from 'bson';
import { MAX_DOCUMENT_BYTES } from './bulk-writes.ts';
import type { Decomposition } from './decompose.ts';
import type { InputRecord } from './input-record.ts';
import type { Row } from './row.ts';

/**
 * JSON text shorter than this cannot make a row past the size limit: BSON takes at most about eight
 * bytes for one of JSON (a number in an array: a type byte, its index as a key, eight bytes of double).
 */
const SURELY_SMALL_TEXT = MAX_DOCUMENT_BYTES / 8;

/**
 * Why a record cannot be stored, if one of its rows (which keeps what the record owns: all its phones,
 * schedules, contacts, …) is over MongoDB's size limit; checked before anything is written, so the record is
 * rejected alone. Only records whose text could be that large are measured.
 */
export function oversizedRow(input: InputRecord, { rows }: Decomposition): string | undefined {
  if (input.text !== undefined && input.text.length < SURELY_SMALL_TEXT) return undefined;
  for (const { entity, row } of rows) {
    const bytes = bytesOverLimit(row);
    if (bytes !== undefined)
      return `the record is too large to store: its ${entity} ${row.id} takes ${bytes} bytes, over MongoDB's limit of ${MAX_DOCUMENT_BYTES}`;
  }
  return undefined;
}

/** Room left for the statement that writes a row (its filter and flags) within the size limit. */
const STATEMENT_BYTES = 1024;

/** A row's size (with its `id`, which is stored as `_id` alone: a little over), if too large to write. */
export function bytesOverLimit(row: Row): number | undefined {
  const bytes = calculateObjectSize(row);
  return bytes >= MAX_DOCUMENT_BYTES - STATEMENT_BYTES ? bytes : undefined;
}
