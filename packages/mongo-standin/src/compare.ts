import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  Decimal128,
  Double,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
} from 'bson';

/**
 * MongoDB's comparison order across BSON types
 * (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/).
 * mingo orders class instances (ObjectId, Long, Double...) structurally or by their string form,
 * which is wrong for sort and range queries, so the stand-in compares with this instead.
 */
export const enum TypeRank {
  MinKey = 0,
  Null = 1,
  Number = 2,
  String = 3,
  Object = 4,
  Array = 5,
  Binary = 6,
  ObjectId = 7,
  Boolean = 8,
  Date = 9,
  Timestamp = 10,
  RegExp = 11,
  Code = 12,
  MaxKey = 13,
}

export function typeRank(value: unknown): TypeRank {
  if (value === null || value === undefined) return TypeRank.Null;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return TypeRank.Number;
    case 'string':
      return TypeRank.String;
    case 'boolean':
      return TypeRank.Boolean;
  }
  if (Array.isArray(value)) return TypeRank.Array;
  if (value instanceof Date) return TypeRank.Date;
  if (value instanceof ObjectId) return TypeRank.ObjectId;
  if (value instanceof Double || value instanceof Long || value instanceof Decimal128) return TypeRank.Number;
  if (value instanceof BSONSymbol) return TypeRank.String;
  if (value instanceof Binary || value instanceof Uint8Array) return TypeRank.Binary;
  if (value instanceof Timestamp) return TypeRank.Timestamp;
  if (value instanceof RegExp || value instanceof BSONRegExp) return TypeRank.RegExp;
  if (value instanceof MinKey) return TypeRank.MinKey;
  if (value instanceof MaxKey) return TypeRank.MaxKey;
  if (value instanceof Code) return TypeRank.Code;
  return TypeRank.Object;
}

/** Numeric value of any BSON number; bigint only where a double would lose precision. */
export function numericValue(value: unknown): number | bigint {
  if (typeof value === 'number' || typeof value === 'bigint') return value;
  if (value instanceof Double) return value.value;
  if (value instanceof Long) {
    const n = value.toNumber();
    return Number.isSafeInteger(n) ? n : value.toBigInt();
  }
  if (value instanceof Decimal128) return Number(value.toString());
  return NaN;
}

const sign = (a: number | bigint | string | boolean, b: number | bigint | string | boolean): number =>
  a < b ? -1 : a > b ? 1 : 0;

function compareNumbers(a: number | bigint, b: number | bigint): number {
  // MongoDB orders NaN below every other number and equal to itself.
  const aNaN = typeof a === 'number' && Number.isNaN(a);
  const bNaN = typeof b === 'number' && Number.isNaN(b);
  if (aNaN || bNaN) return aNaN && bNaN ? 0 : aNaN ? -1 : 1;
  return sign(a, b);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return sign(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return sign(a[i]!, b[i]!);
  return 0;
}

/** Total order over BSON values as MongoDB compares them (arrays compared element by element). */
export function compareValues(a: unknown, b: unknown): number {
  const rankA = typeRank(a);
  const rankB = typeRank(b);
  if (rankA !== rankB) return sign(rankA, rankB);
  switch (rankA) {
    case TypeRank.Null:
    case TypeRank.MinKey:
    case TypeRank.MaxKey:
      return 0;
    case TypeRank.Number:
      return compareNumbers(numericValue(a), numericValue(b));
    case TypeRank.String:
      return sign(String(a), String(b));
    case TypeRank.Boolean:
      return sign(a as boolean, b as boolean);
    case TypeRank.Date:
      return sign((a as Date).getTime(), (b as Date).getTime());
    case TypeRank.ObjectId:
      return sign((a as ObjectId).toHexString(), (b as ObjectId).toHexString());
    case TypeRank.Timestamp:
      return (a as Timestamp).compare(b as Timestamp);
    case TypeRank.Binary:
      return compareBinary(a as Binary | Uint8Array, b as Binary | Uint8Array);
    case TypeRank.RegExp:
      return compareRegExp(a as RegExp | BSONRegExp, b as RegExp | BSONRegExp);
    case TypeRank.Array:
      return compareArrays(a as unknown[], b as unknown[]);
    case TypeRank.Code:
      return sign((a as Code).code, (b as Code).code);
    default:
      return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>);
  }
}

function compareBinary(a: Binary | Uint8Array, b: Binary | Uint8Array): number {
  const bytesA = a instanceof Binary ? a.value() : a;
  const bytesB = b instanceof Binary ? b.value() : b;
  if (bytesA.length !== bytesB.length) return sign(bytesA.length, bytesB.length);
  const subtypeA = a instanceof Binary ? a.sub_type : 0;
  const subtypeB = b instanceof Binary ? b.sub_type : 0;
  return subtypeA !== subtypeB ? sign(subtypeA, subtypeB) : compareBytes(bytesA, bytesB);
}

function compareRegExp(a: RegExp | BSONRegExp, b: RegExp | BSONRegExp): number {
  const [sourceA, flagsA] = a instanceof RegExp ? [a.source, a.flags] : [a.pattern, a.options];
  const [sourceB, flagsB] = b instanceof RegExp ? [b.source, b.flags] : [b.pattern, b.options];
  return sign(sourceA, sourceB) || sign(flagsA, flagsB);
}

function compareArrays(a: unknown[], b: unknown[]): number {
  const size = Math.min(a.length, b.length);
  for (let i = 0; i < size; i++) {
    const order = compareValues(a[i], b[i]);
    if (order !== 0) return order;
  }
  return sign(a.length, b.length);
}

function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const keysA = Object.keys(a).filter((k) => a[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => b[k] !== undefined);
  const size = Math.min(keysA.length, keysB.length);
  for (let i = 0; i < size; i++) {
    const keyA = keysA[i]!;
    const keyB = keysB[i]!;
    const order =
      sign(typeRank(a[keyA]), typeRank(b[keyB])) || sign(keyA, keyB) || compareValues(a[keyA], b[keyB]);
    if (order !== 0) return order;
  }
  return sign(keysA.length, keysB.length);
}

export const valuesEqual = (a: unknown, b: unknown): boolean => compareValues(a, b) === 0;
