import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { InputRecord } from '../input-record.ts';
import { withoutByteOrderMark } from './byte-order-mark.ts';
import { firstInvalidUtf8 } from '../../utf8.ts';
import { invalidUtf8At, refusingWideEncodings, WideEncodingError } from './utf8.ts';

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
 * stays flat whatever the size. Each record is given as its text, parsed when it is validated (a line that
 * is not JSON is rejected alone then: `parsedRecord`). Blank lines are skipped; a line that is not UTF-8
 * (`invalid UTF-8 at byte N`, N counted from 0 at the start of the input), or longer than `maxLineBytes`
 * (line break not counted), is rejected alone. A byte order mark opening a line is dropped (the file's, or that of a file joined to it). An input in UTF-16 or
 * UTF-32 is refused whole, with one error naming its encoding: none of its lines would read.
 */
export async function* readNdjson(
  input: Readable,
  file: string,
  maxLineBytes = MAX_LINE_BYTES,
): AsyncGenerator<InputRecord> {
  let line = 0;
  try {
    for await (const { start, bytes } of splitLines(refusingWideEncodings(input), maxLineBytes)) {
      line += 1;
      const source = { file, line };
      if (bytes === undefined) {
        yield { source, error: `the line is longer than ${maxLineBytes} bytes: too large for a record` };
        continue;
      }
      const invalid = firstInvalidUtf8(bytes);
      if (invalid !== -1) {
        yield { source, error: invalidUtf8At(start + invalid) };
        continue;
      }
      const text = bytes.toString('utf8');
      if (text.trim() === '') continue;
      // Any line's: files joined end to end (`cat a.ndjson b.ndjson`) keep the mark each one opened with.
      yield { source, text: withoutByteOrderMark(text) };
    }
  } catch (error) {
    if (!(error instanceof WideEncodingError)) throw error;
    yield { source: { file }, error: error.message };
  }
}

export const readNdjsonFile = (file: string) => readNdjson(createReadStream(file), file);

/** A line of the input without its line break: its bytes (undefined when over the limit) and their offset. */
interface Line {
  bytes: Buffer | undefined;
  start: number;
}

/** The lines of a byte stream, each without its line break; its bytes undefined for one over `maxBytes`. */
async function* splitLines(input: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  // Offsets in the input of the current chunk and of the line being read.
  let offset = 0;
  let lineStart = 0;
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
  const take = (): Line => {
    const line = { bytes: tooLong ? undefined : Buffer.concat(parts, size), start: lineStart };
    parts = [];
    size = 0;
    tooLong = false;
    return line;
  };
  /** The last chunk ended with a CR: an LF opening the next one belongs to the same line break. */
  let afterCarriageReturn = false;
  for await (const bytes of input) {
    if (bytes.length === 0) continue;
    let start = afterCarriageReturn && bytes[0] === LINE_FEED ? 1 : 0;
    lineStart += start;
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
      lineStart = offset + start;
      if (lineFeed !== -1 && lineFeed < start) lineFeed = bytes.indexOf(LINE_FEED, start);
      if (carriageReturn !== -1 && carriageReturn < start)
        carriageReturn = bytes.indexOf(CARRIAGE_RETURN, start);
    }
    if (start < bytes.length) keep(bytes.subarray(start));
    offset += bytes.length;
  }
  if (size > 0 || tooLong) yield take();
}
