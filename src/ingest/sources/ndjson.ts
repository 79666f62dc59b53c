import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { InputRecord } from '../input-record.ts';
import { withoutByteOrderMark } from './byte-order-mark.ts';

/**
 * NDJSON / JSON Lines: one record a line, read as a stream so memory stays flat whatever the size. Blank
 * lines are skipped; a line that is not JSON is rejected alone. A byte order mark opening the file is dropped.
 */
export async function* readNdjson(input: Readable, file: string): AsyncGenerator<InputRecord> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      yield { source: { file, line }, value: JSON.parse(line === 1 ? withoutByteOrderMark(text) : text) };
    } catch (error) {
      yield { source: { file, line }, error: `not valid JSON: ${(error as Error).message}` };
    }
  }
}

export const readNdjsonFile = (file: string) => readNdjson(createReadStream(file), file);
