import { Binary, Decimal128, Double, Long, ObjectId } from 'bson';
import { BSON } from 'bson';
import { numericValue } from '../compare.ts';

/**
 * A string that is equal for two BSON values exactly when MongoDB's index considers them equal:
 * numbers by value whatever their type (1, 1.0 and Long(1) are one key), missing and null alike.
 */
export function indexKey(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return `s:${value}`;
    case 'number':
    case 'bigint':
      return `n:${numberKey(value)}`;
    case 'boolean':
      return `b:${value}`;
  }
  if (value instanceof ObjectId) return `o:${value.toHexString()}`;
  if (value instanceof Date) return `t:${value.getTime()}`;
  if (value instanceof Double || value instanceof Long || value instanceof Decimal128)
    return `n:${numberKey(numericValue(value))}`;
  if (value instanceof Binary) return `x:${value.sub_type}:${Buffer.from(value.value()).toString('base64')}`;
  return `d:${Buffer.from(BSON.serialize({ v: value })).toString('base64')}`;
}

function numberKey(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  return Object.is(n, -0) ? '0' : String(n);
}

/** Whether an equality operand can be looked up in a hash index (embedded documents and arrays cannot). */
export function isIndexableScalar(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return (
    value instanceof ObjectId || value instanceof Date || value instanceof Double || value instanceof Long
  );
}
