import { BSON, Double, Int32, type Document } from 'bson';
import { isPlainObject as isEmbeddedDocument } from 'geojson-sphere';

/**
 * In-memory representation of BSON values. Numbers stay JS numbers so that mingo can compute on them,
 * except where a plain number would not round-trip to the same BSON type: integral doubles stay `Double`
 * (a JS integer would go back as int32) and 64-bit integers stay `Long`. Everything else is what the
 * `bson` package gives by default.
 */
const DESERIALIZE_OPTIONS = { promoteValues: false, promoteBuffers: false, bsonRegExp: false } as const;

export function decodeDocument(bytes: Uint8Array): Document {
  return normalizeNumbers(BSON.deserialize(bytes, DESERIALIZE_OPTIONS)) as Document;
}

export function encodeDocument(doc: Document): Uint8Array {
  return BSON.serialize(doc, { ignoreUndefined: true });
}

/** Replaces Int32 by numbers and non-integral Double by numbers, in place. */
function normalizeNumbers(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Int32) return value.value;
  if (value instanceof Double) return Number.isInteger(value.value) ? value : value.value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = normalizeNumbers(value[i]);
    return value;
  }
  if (isPlainObject(value)) {
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) obj[key] = normalizeNumbers(obj[key]);
  }
  return value;
}

/**
 * An embedded document (not an array, Date, RegExp or BSON value). The one definition is geojson-sphere's,
 * whose GeoJSON parsing the stand-in shares; here it narrows to a bson Document.
 */
export const isPlainObject: (value: unknown) => value is Document = isEmbeddedDocument;

/** A whole number of documents: a `$skip` or `$limit` MongoDB takes (a `$limit` must also be above 0). */
export const isCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;

/** Deep copy that keeps BSON value instances (they are immutable) and copies containers. */
export function cloneDocument<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneDocument) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (!isPlainObject(value)) return value;
  const copy: Document = {};
  for (const key of Object.keys(value)) setField(copy, key, cloneDocument(value[key]));
  return copy as T;
}

/**
 * Freezes a document, and the embedded documents and arrays in it (other values, such as ObjectIds and
 * binary data, are left as they are): for a document shared between readers that must not change it.
 */
export function freezeDocument<T>(value: T): T {
  if (Array.isArray(value) || isPlainObject(value)) {
    for (const element of Object.values(value)) freezeDocument(element);
    Object.freeze(value);
  }
  return value;
}

/**
 * Sets a document's field. `__proto__` is an ordinary field name in BSON (the `bson` package decodes it as
 * an own field), but assigning it would set the object's prototype instead: the field would be lost.
 */
export function setField(target: Document, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
