import type { InputRecord } from '../input-record.ts';
import { NotUtf8Error, readUtf8File } from './utf8.ts';

/**
 * A JSON file holding one record or an array of records. The file is parsed whole (JSON arrays cannot be
 * streamed record by record without a streaming parser): use NDJSON for inputs larger than memory. A file
 * that is not UTF-8 is one error, saying where or in which encoding it is.
 */
export async function* readJsonFile(file: string): AsyncGenerator<InputRecord> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readUtf8File(file));
  } catch (error) {
    const message = (error as Error).message;
    yield { source: { file }, error: error instanceof NotUtf8Error ? message : `not valid JSON: ${message}` };
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
