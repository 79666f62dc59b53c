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

/** BSON's type byte for binary data. */
const BSON_BINARY = 0x05;

/**
 * The bytes of the served form in a document read undecoded (the driver's `raw`) with a projection of
 * that one field (`{_id: 0, _item: 1}`): a view of the reply, no copy. A stream or a page sends nothing
 * else of the document, and the driver's decoding of each was half the app's work per list item.
 */
export function soleStoredBytes(document: Uint8Array, field: '_json' | '_item'): Buffer {
  const raw = Buffer.from(document.buffer, document.byteOffset, document.byteLength);
  const nameEnd = 5 + field.length;
  // The type, the name, the length, the binary subtype (generic: 0), then the bytes.
  const start = nameEnd + 6;
  const length = raw.length >= start ? raw.readInt32LE(nameEnd + 1) : -1;
  if (
    raw[4] !== BSON_BINARY ||
    raw[nameEnd] !== 0 ||
    raw.toString('latin1', 5, nameEnd) !== field ||
    raw[nameEnd + 5] !== 0 ||
    length < 0 ||
    start + length > raw.length
  )
    throw new Error(`a document read for its ${field} alone holds something else`);
  return raw.subarray(start, start + length);
}

/**
 * Whether a root's documents keep the whole record as served (`_json`). Organizations do not: theirs
 * leaves out their `services`, joined when they are read (ids, or full services with `full_service=true`).
 */
export const storesWholeRecord = (root: RootEntity): boolean => root !== 'organization';
