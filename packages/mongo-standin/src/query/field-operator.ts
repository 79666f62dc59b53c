import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';

/**
 * The shape shared by the stand-in's query operators on a field: `{path: {$op: operand}}` tests the
 * values the path reaches, arrays and their elements alike.
 */
export type Predicate = (fieldValue: unknown, operand: unknown) => boolean;

/** A mingo query operator: compiles `{selector: {$op: operand}}` into a document test. */
export type FieldOperator = (
  selector: string,
  operand: unknown,
  options: Options,
) => (doc: Record<string, unknown>) => boolean;

/** The values a path yields: the value itself and, for arrays, their elements (MongoDB matches either). */
export function candidates(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [value];
  const out: unknown[] = [value];
  for (const item of value) {
    out.push(item);
    if (Array.isArray(item)) out.push(...item);
  }
  return out;
}

export function fieldOperator(predicate: Predicate): FieldOperator {
  return (selector, operand) => (doc) => predicate(resolve(doc, selector, { unwrapArray: true }), operand);
}
