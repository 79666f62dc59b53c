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

/**
 * Whether a root's documents keep the whole record as served (`_json`). Organizations do not: their
 * `services` are joined when they are read (ids, or full services with `full_service=true`).
 */
export const storesWholeRecord = (root: RootEntity): boolean => root !== 'organization';
