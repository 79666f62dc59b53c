import { Binary } from 'mongodb';
import type { RootEntity } from '../ingest/entities.ts';

/**
 * The served forms (`_json`, `_item`) are stored as BSON binary holding UTF-8 JSON: read back, they are
 * bytes to send as they are, never decoded into a string and encoded again on every read.
 */
export const servedBytes = (json: string): Buffer => Buffer.from(json, 'utf8');

/**
 * The bytes of a stored served form, or undefined when the document has none. Databases loaded before the
 * forms were binary hold them as strings, which are encoded here (an unchanged re-import keeps them).
 */
export function storedBytes(value: unknown): Buffer | undefined {
  if (typeof value === 'string') return servedBytes(value);
  if (!(value instanceof Binary)) return undefined;
  // A view of the driver's reply buffer: no copy.
  const bytes = value.buffer;
  return Buffer.from(bytes.buffer, bytes.byteOffset, value.position);
}

/**
 * Whether a root's documents keep the whole record as served (`_json`). Organizations do not: their
 * `services` are joined when they are read (ids, or full services with `full_service=true`).
 */
export const storesWholeRecord = (root: RootEntity): boolean => root !== 'organization';
