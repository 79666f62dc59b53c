import { readFile } from 'node:fs/promises';
import type { InputRecord } from '../input-record.ts';
import { withoutByteOrderMark } from './byte-order-mark.ts';

/**
 * A JSON file holding one record or an array of records. The file is parsed whole (JSON arrays cannot be
 * streamed record by record without a streaming parser): use NDJSON for inputs larger than memory.
 */
export async function* readJsonFile(file: string): AsyncGenerator<InputRecord> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutByteOrderMark(await readFile(file, 'utf8')));
  } catch (error) {
    yield { source: { file }, error: `not valid JSON: ${(error as Error).message}` };
    return;
  }
  yield* jsonRecords(parsed, file);
}

/** The records of a parsed JSON document: the document itself, or each item of an array. */
export async function* jsonRecords(parsed: unknown, file: string): AsyncGenerator<InputRecord> {
  if (!Array.isArray(parsed)) {
    yield { source: { file }, value: parsed };
    return;
  }
  for (const [index, value] of parsed.entries()) yield { source: { file, index }, value };
}
