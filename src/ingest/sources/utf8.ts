import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { firstInvalidUtf8, scanUtf8 } from '../../utf8.ts';
import { withoutByteOrderMark } from './byte-order-mark.ts';

/**
 * Unicode encodings other than UTF-8, which a whole input can be in (an export "as Unicode" from a
 * spreadsheet or Windows tool): no line or row of it reads as UTF-8, so such an input is refused whole.
 */
export type WideEncoding = 'UTF-16LE' | 'UTF-16BE' | 'UTF-32LE' | 'UTF-32BE';

/** How many bytes of an input's start tell a wide encoding. */
const HEAD_BYTES = 4;

/**
 * The wide encoding an input's first bytes show: its byte order mark, or else the NUL bytes beside an ASCII
 * first character (JSON's `{` or `[`, a CSV header's first letter), as RFC 4627 §3 tells JSON's encodings
 * apart. UTF-8 text has no NUL there (JSON and CSV have no use for one), and UTF-8's own byte order mark is
 * no wide encoding.
 */
export function wideEncodingOf(head: Uint8Array): WideEncoding | undefined {
  const [a, b, c, d] = head;
  // UTF-32LE's mark starts with UTF-16LE's.
  if (a === 0xff && b === 0xfe) return c === 0 && d === 0 ? 'UTF-32LE' : 'UTF-16LE';
  if (a === 0xfe && b === 0xff) return 'UTF-16BE';
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'UTF-32BE';
  if (head.length >= 4 && a === 0 && b === 0 && c === 0 && d !== 0) return 'UTF-32BE';
  if (head.length >= 4 && a !== 0 && b === 0 && c === 0 && d === 0) return 'UTF-32LE';
  if (head.length >= 2 && a === 0 && b !== 0) return 'UTF-16BE';
  if (head.length >= 2 && a !== 0 && b === 0) return 'UTF-16LE';
  return undefined;
}

/** What an input in a wide encoding is and what to do about it, `what` naming the input. */
export const notUtf8 = (what: string, encoding: WideEncoding) =>
  `${what} is ${encoding}, not UTF-8: convert it to UTF-8 first (e.g. iconv -f ${encoding} -t UTF-8)`;

/** Why a record with bytes that are not UTF-8 is rejected: `offset` counts from 0 at the input's start. */
export const invalidUtf8At = (offset: number) => `invalid UTF-8 at byte ${offset}`;

/** An input that cannot be read as UTF-8 text; its message says why, for the report. */
export class NotUtf8Error extends Error {}

/** A whole input in a wide encoding: refused before any of it is read. */
export class WideEncodingError extends NotUtf8Error {
  constructor(readonly encoding: WideEncoding) {
    super(notUtf8('the file', encoding));
  }
}

/** Bytes that are not UTF-8, at `offset` of the input. */
export class InvalidUtf8Error extends NotUtf8Error {
  constructor(offset: number) {
    super(invalidUtf8At(offset));
  }
}

function refuseWideEncoding(head: Uint8Array): void {
  const encoding = wideEncodingOf(head);
  if (encoding !== undefined) throw new WideEncodingError(encoding);
}

/**
 * The chunks of a byte stream as they come, as bytes, once its first bytes have shown it is in no wide
 * encoding (else it fails with a `WideEncodingError` before yielding any): the first chunks are held until
 * they hold enough bytes to tell.
 */
export async function* refusingWideEncodings(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (head === undefined) {
      yield bytes;
      continue;
    }
    head = Buffer.concat([head, bytes]);
    if (head.length < HEAD_BYTES) continue;
    refuseWideEncoding(head);
    yield head;
    head = undefined;
  }
  if (head !== undefined && head.length > 0) {
    refuseWideEncoding(head);
    yield head;
  }
}

/** The text of UTF-8 bytes, without a byte order mark; an `InvalidUtf8Error` if they are not UTF-8. */
export function decodeUtf8(bytes: Buffer): string {
  const invalid = firstInvalidUtf8(bytes);
  if (invalid !== -1) throw new InvalidUtf8Error(invalid);
  return withoutByteOrderMark(bytes.toString('utf8'));
}

/** A whole file's UTF-8 text, without a byte order mark; a `NotUtf8Error` if it is not UTF-8. */
export async function readUtf8File(file: string): Promise<string> {
  const bytes = await readFile(file);
  refuseWideEncoding(bytes.subarray(0, HEAD_BYTES));
  return decodeUtf8(bytes);
}

/** How many of the bytes end with whole characters: a character the next chunk ends is left out. */
function wholeCharacters(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

const hasLineBreak = (bytes: Buffer, from: number, to: number) => {
  const part = bytes.subarray(from, to);
  return part.includes(0x0a) || part.includes(0x0d);
};

/**
 * Finds where a byte stream of lines (records ended by CR, LF or CRLF) is not UTF-8 as it is read (`check`
 * passes its chunks on): a character split between chunks is checked whole once the next chunk brings its
 * end. Offsets count from the stream's first byte. The reader takes them a record at a time (`takeBefore`),
 * and only the first after each line break is kept (no record starts between two others), so memory holds
 * at most one per line of the chunks read ahead, however many bytes are bad.
 */
export class Utf8StreamCheck {
  /** Offsets of bytes starting no UTF-8 character, in order, not yet taken. */
  private readonly invalid: number[] = [];
  /** Whether a line break came after the last offset kept. */
  private lineBreakSince = true;
  /** The start of a character that the next chunk ends, and its offset. */
  private held = Buffer.alloc(0);
  private heldAt = 0;

  /** The chunks, each checked before it is passed on: a record is read after its bytes are checked. */
  async *check(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      this.push(chunk);
      yield chunk;
    }
    // A character left unfinished at the end is not UTF-8.
    if (this.held.length > 0 && this.lineBreakSince) this.invalid.push(this.heldAt);
  }

  /** The first offset found before `end`, if any, forgetting every one before it. */
  takeBefore(end: number): number | undefined {
    let count = 0;
    while (count < this.invalid.length && this.invalid[count]! < end) count += 1;
    return count === 0 ? undefined : this.invalid.splice(0, count)[0];
  }

  private push(chunk: Buffer): void {
    const bytes = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const whole = wholeCharacters(bytes);
    // Bytes before `from` are known to hold a line break since the last offset kept, or not.
    let from = 0;
    if (!isUtf8(bytes.subarray(0, whole))) {
      // Scanning on from the byte after each one found keeps the whole check linear.
      for (let at = scanUtf8(bytes, 0, whole); at !== -1; at = scanUtf8(bytes, at + 1, whole)) {
        if (this.lineBreakSince || hasLineBreak(bytes, from, at)) this.invalid.push(this.heldAt + at);
        this.lineBreakSince = false;
        from = at + 1;
      }
    }
    this.lineBreakSince ||= hasLineBreak(bytes, from, whole);
    this.held = Buffer.from(bytes.subarray(whole));
    this.heldAt += whole;
  }
}
