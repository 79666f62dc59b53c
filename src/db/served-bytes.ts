import type { Binary } from 'mongodb';
import type { RootEntity } from '../hsds/entities.ts';

/**
 * The served forms (`_json`, `_item`) are stored as BSON binary holding UTF-8 JSON: read back, they are
 * bytes to send as they are, never decoded into a string and encoded again on every read.
 */
export const servedBytes = (json: string): Buffer => Buffer.from(json, 'utf8');

/** The bytes of a stored served form: a view of the driver's reply buffer, no copy. */
export function storedBytes(value: Binary): Buffer {
  const bytes = value.buffer;
  return Buffer.from(bytes.buffer, bytes.byteOffset, value.position);
}

/** BSON's types that rawElements reads the values of (see rawNumber, rawString, isStoredForm). */
const BSON_DOUBLE = 0x01;
const BSON_STRING = 0x02;
const BSON_DOCUMENT = 0x03;
const BSON_BINARY = 0x05;
const BSON_INT32 = 0x10;
const BSON_INT64 = 0x12;

/** The size of the values of fixed size, by type (ObjectId, booleans, dates, null, timestamps, …). */
const FIXED_SIZES = new Map([
  [BSON_DOUBLE, 8],
  [0x06, 0], // undefined
  [0x07, 12], // ObjectId
  [0x08, 1], // boolean
  [0x09, 8], // date
  [0x0a, 0], // null
  [BSON_INT32, 4],
  [0x11, 8], // timestamp
  [BSON_INT64, 8],
  [0x13, 16], // decimal128
  [0x7f, 0], // max key
  [0xff, 0], // min key
]);
/** Types whose value is a length-prefixed string (string, JavaScript code, symbol). */
const STRING_LIKE = new Set([BSON_STRING, 0x0d, 0x0e]);
/** Types whose value is a length-prefixed document (document, array, code with scope). */
const DOCUMENT_LIKE = new Set([BSON_DOCUMENT, 0x04, 0x0f]);

/**
 * A top-level field of a document read undecoded: its name, type, and where its value lies in the bytes
 * read (binary data: its bytes, of `subtype`; a string: its UTF-8 bytes; a document or a number: all of it).
 */
export interface RawElement {
  name: string;
  type: number;
  start: number;
  end: number;
  /** Binary data's subtype (otherwise undefined). */
  subtype: number | undefined;
}

/** A document's bytes as read undecoded (the driver's `raw`), as a Buffer viewing them. */
export const rawBytes = (document: Uint8Array): Buffer =>
  Buffer.isBuffer(document)
    ? document
    : Buffer.from(document.buffer, document.byteOffset, document.byteLength);

/**
 * The top-level fields of the document at `at` in `raw`, in their order, each with where its value lies
 * (of every BSON type but the deprecated DBPointer); bytes that do not hold together are an error naming
 * `what` the document was read for.
 */
export function rawElements(raw: Buffer, what: string, at = 0): RawElement[] {
  const documentEnd = at + readLength(raw, at);
  if (documentEnd < at + 5 || documentEnd > raw.length || raw[documentEnd - 1] !== 0) throw failure(what);
  const elements: RawElement[] = [];
  let next = at + 4;
  while (next < documentEnd - 1) {
    const typeAt = next;
    const type = raw[typeAt]!;
    const nameEnd = raw.indexOf(0, typeAt + 1);
    if (nameEnd < 0 || nameEnd >= documentEnd) throw failure(what);
    let start = nameEnd + 1;
    let end: number;
    let subtype: number | undefined;
    const fixed = FIXED_SIZES.get(type);
    if (fixed !== undefined) next = end = start + fixed;
    else if (type === BSON_BINARY) {
      next = end = start + 5 + readLength(raw, start);
      subtype = raw[start + 4];
      start += 5;
    } else if (STRING_LIKE.has(type)) {
      next = start + 4 + readLength(raw, start);
      start += 4;
      end = next - 1;
      if (raw[end] !== 0) throw failure(what);
    } else if (DOCUMENT_LIKE.has(type)) next = end = start + readLength(raw, start);
    else if (type === 0x0b) {
      // A regular expression: its pattern and its options, two C strings.
      const patternEnd = raw.indexOf(0, start);
      next = end = patternEnd < 0 ? -1 : raw.indexOf(0, patternEnd + 1) + 1;
      if (next <= 0) throw failure(what);
    } else throw failure(what);
    if (next > documentEnd - 1 || end < start) throw failure(what);
    // Field names are the app's own, ASCII.
    const name = raw.toString('latin1', typeAt + 1, nameEnd);
    elements.push({ name, type, start, end, subtype });
  }
  return elements;
}

const failure = (what: string) => new Error(`a document read for ${what} holds something else`);

const readLength = (raw: Buffer, at: number) => (at + 4 <= raw.length ? raw.readInt32LE(at) : -1);

/** Whether a field read undecoded (rawElements) holds a served form: BSON binary of the generic subtype. */
export const isStoredForm = (element: RawElement): boolean =>
  element.type === BSON_BINARY && element.subtype === 0;

/** A number read undecoded (rawElements): a 32- or 64-bit integer or a double. */
export function rawNumber(raw: Buffer, element: RawElement): number | undefined {
  if (element.type === BSON_INT32) return raw.readInt32LE(element.start);
  if (element.type === BSON_DOUBLE) return raw.readDoubleLE(element.start);
  if (element.type === BSON_INT64) return Number(raw.readBigInt64LE(element.start));
  return undefined;
}

/** Whether a field read undecoded (rawElements) holds a document, which rawElements can read in turn. */
export const isRawDocument = (element: RawElement): boolean => element.type === BSON_DOCUMENT;

/** A string read undecoded (rawElements). */
export const rawString = (raw: Buffer, element: RawElement): string | undefined =>
  element.type === BSON_STRING ? raw.toString('utf8', element.start, element.end) : undefined;

/**
 * The bytes of the served form in a document read undecoded (the driver's `raw`) with a projection of
 * that one field (`{_id: 0, _item: 1}`): a view of the reply, no copy. A stream or a page sends nothing
 * else of the document, and the driver's decoding of each was half the app's work per list item.
 */
export function soleStoredBytes(document: Uint8Array, field: '_json' | '_item'): Buffer {
  const what = `its ${field} alone`;
  const raw = rawBytes(document);
  const [first] = rawElements(raw, what);
  if (first?.name !== field || !isStoredForm(first))
    throw new Error(`a document read for ${what} holds something else`);
  return raw.subarray(first.start, first.end);
}

/**
 * Whether a root's documents keep the whole record as served (`_json`). Organizations do not: theirs
 * leaves out their `services`, joined when they are read (ids, or full services with `full_service=true`).
 */
export const storesWholeRecord = (root: RootEntity): boolean => root !== 'organization';
