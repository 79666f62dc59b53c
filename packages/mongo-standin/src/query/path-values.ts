import { isPlainObject } from '../bson-values.ts';

/**
 * All values a dotted path reaches in a document, descending into arrays the way MongoDB does
 * for indexes and sort keys: arrays met on the way are traversed and terminal arrays contribute
 * their elements. Missing values are omitted.
 */
export function pathValues(doc: unknown, path: string): unknown[] {
  return valuesAtParts(doc, path.split('.'));
}

/** `pathValues` of a path already split at its dots. */
export function valuesAtParts(doc: unknown, parts: readonly string[]): unknown[] {
  const out: unknown[] = [];
  collect(doc, parts, 0, out);
  return out;
}

function collect(value: unknown, parts: readonly string[], index: number, out: unknown[]): void {
  if (index === parts.length) {
    if (Array.isArray(value)) out.push(...value);
    else if (value !== undefined) out.push(value);
    return;
  }
  const part = parts[index]!;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) collect(value[Number(part)], parts, index + 1, out);
    for (const item of value) if (isPlainObject(item)) collect(item, parts, index, out);
    return;
  }
  if (isPlainObject(value) && Object.hasOwn(value, part)) collect(value[part], parts, index + 1, out);
}
