import { numericValue } from '../compare.ts';
import { badValue } from '../errors.ts';
import { isPlainObject } from '../bson-values.ts';

/** `n` (first n, or last -n) or `[skip, limit]` (a negative skip counts from the end). */
function sliceBounds(operand: unknown, length: number): [number, number] {
  if (Array.isArray(operand)) {
    if (operand.length !== 2) throw badValue('$slice array argument must be of the form [skip, limit]');
    const [skip, limit] = operand.map((n) => Number(numericValue(n)));
    if (!Number.isInteger(skip) || !Number.isInteger(limit))
      throw badValue('$slice arguments must be integers');
    if (limit! <= 0) throw badValue(`$slice limit must be positive`);
    const start = skip! < 0 ? Math.max(0, length + skip!) : Math.min(skip!, length);
    return [start, start + limit!];
  }
  const n = Number(numericValue(operand));
  if (!Number.isInteger(n)) throw badValue('$slice only supports numbers and [skip, limit] arrays');
  return n >= 0 ? [0, n] : [Math.max(0, length + n), length];
}

/**
 * The `$slice` projection, in place on a projected copy: the array at `path` keeps the selected
 * elements; through an array of embedded documents each element's array is sliced. Non-arrays stay.
 */
export function sliceArray(node: unknown, path: string, operand: unknown): void {
  const dot = path.indexOf('.');
  const field = dot < 0 ? path : path.slice(0, dot);
  if (Array.isArray(node)) {
    for (const element of node) sliceArray(element, path, operand);
    return;
  }
  if (!isPlainObject(node) || !(field in node)) return;
  if (dot >= 0) {
    sliceArray(node[field], path.slice(dot + 1), operand);
    return;
  }
  const value = node[field];
  if (Array.isArray(value)) node[field] = value.slice(...sliceBounds(operand, value.length));
}
