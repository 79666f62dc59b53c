import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { InputRecord } from '../input-record.ts';
import { withoutByteOrderMark } from './byte-order-mark.ts';

/**
 * Lines longer than this are rejected unread: no record that long could be stored (MongoDB documents are
 * at most 16 MiB, and a service is stored several times over), and holding it would make memory grow
 * with the input instead of staying flat.
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * NDJSON / JSON Lines: one record a line (ended by LF, CRLF or a lone CR), read as a stream so memory
 * stays flat whatever the size. Blank lines are skipped; a line that is not JSON, or longer than
 * `maxLineBytes` (line break not counted), is rejected alone. A byte order mark opening the file is
 * dropped.
 */
export async function* readNdjson(
  input: Readable,
  file: string,
  maxLineBytes = MAX_LINE_BYTES,
): AsyncGenerator<InputRecord> {
  let line = 0;
  for await (const text of splitLines(input, maxLineBytes)) {
    line += 1;
    const source = { file, line };
    if (text === undefined) {
      yield { source, error: `the line is longer than ${maxLineBytes} bytes: too large for a record` };
      continue;
    }
    if (text.trim() === '') continue;
    try {
      yield { source, value: JSON.parse(line === 1 ? withoutByteOrderMark(text) : text) };
    } catch (error) {
      yield { source, error: `not valid JSON: ${(error as Error).message}` };
    }
  }
}

export const readNdjsonFile = (file: string) => readNdjson(createReadStream(file), file);

/** The lines of a byte stream as text, each without its line break; undefined for one over `maxBytes`. */
async function* splitLines(
  input: AsyncIterable<Buffer | string>,
  maxBytes: number,
): AsyncGenerator<string | undefined> {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  const keep = (piece: Buffer) => {
    if (tooLong) return;
    if (size + piece.length > maxBytes) {
      tooLong = true;
      parts = [];
      return;
    }
    parts.push(piece);
    size += piece.length;
  };
  const take = (): string | undefined => {
    const text = tooLong ? undefined : Buffer.concat(parts, size).toString('utf8');
    parts = [];
    size = 0;
    tooLong = false;
    return text;
  };
  /** The last chunk ended with a CR: an LF opening the next one belongs to the same line break. */
  let afterCarriageReturn = false;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (bytes.length === 0) continue;
    let start = afterCarriageReturn && bytes[0] === LINE_FEED ? 1 : 0;
    afterCarriageReturn = false;
    let lineFeed = bytes.indexOf(LINE_FEED, start);
    let carriageReturn = bytes.indexOf(CARRIAGE_RETURN, start);
    while (lineFeed !== -1 || carriageReturn !== -1) {
      const end =
        carriageReturn === -1
          ? lineFeed
          : lineFeed === -1
            ? carriageReturn
            : Math.min(lineFeed, carriageReturn);
      keep(bytes.subarray(start, end));
      yield take();
      start = end + 1;
      if (bytes[end] === CARRIAGE_RETURN) {
        if (start === bytes.length) afterCarriageReturn = true;
        else if (bytes[start] === LINE_FEED) start += 1;
      }
      if (lineFeed !== -1 && lineFeed < start) lineFeed = bytes.indexOf(LINE_FEED, start);
      if (carriageReturn !== -1 && carriageReturn < start)
        carriageReturn = bytes.indexOf(CARRIAGE_RETURN, start);
    }
    if (start < bytes.length) keep(bytes.subarray(start));
  }
  if (size > 0 || tooLong) yield take();
}
