import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';
import { badValue } from '../errors.ts';
import { compareValues, typeRank, valuesEqual } from '../compare.ts';

/**
 * Query comparison operators with MongoDB's BSON semantics (numeric equality across int/long/double,
 * ObjectId/Date/Long ordering, type bracketing of range queries). They replace mingo's versions, which
 * compare class instances structurally.
 */
type Predicate = (fieldValue: unknown, operand: unknown) => boolean;

/** A mingo query operator: compiles `{selector: {$op: operand}}` into a document test. */
export type FieldOperator = (
  selector: string,
  operand: unknown,
  options: Options,
) => (doc: Record<string, unknown>) => boolean;

/** The values a path yields: the value itself and, for arrays, their elements (MongoDB matches either). */
function candidates(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [value];
  const out: unknown[] = [value];
  for (const item of value) {
    out.push(item);
    if (Array.isArray(item)) out.push(...item);
  }
  return out;
}

function fieldOperator(predicate: Predicate): FieldOperator {
  return (selector, operand) => (doc) => predicate(resolve(doc, selector, { unwrapArray: true }), operand);
}

const equals: Predicate = (value, operand) => {
  if (value === undefined) return operand === null;
  return candidates(value).some((v) => valuesEqual(v, operand));
};

function rangePredicate(test: (order: number) => boolean): Predicate {
  return (value, operand) => {
    const rank = typeRank(operand);
    return candidates(value).some((v) => typeRank(v) === rank && test(compareValues(v, operand)));
  };
}

function requireArray(operator: string, operand: unknown): unknown[] {
  if (!Array.isArray(operand)) throw badValue(`${operator} needs an array`);
  return operand;
}

const isIn = (value: unknown, operands: unknown[]): boolean => {
  const values = candidates(value);
  return operands.some((operand) =>
    operand instanceof RegExp
      ? values.some((v) => typeof v === 'string' && operand.test(v))
      : value === undefined
        ? operand === null
        : values.some((v) => valuesEqual(v, operand)),
  );
};

function setOperator(name: string, negate: boolean): FieldOperator {
  return (selector, operand, options) => {
    const operands = requireArray(name, operand);
    return fieldOperator((value) => isIn(value, operands) !== negate)(selector, operand, options);
  };
}

export const comparisonOperators: Record<string, FieldOperator> = {
  $eq: fieldOperator(equals),
  $ne: fieldOperator((value, operand) => !equals(value, operand)),
  $gt: fieldOperator(rangePredicate((order) => order > 0)),
  $gte: fieldOperator(rangePredicate((order) => order >= 0)),
  $lt: fieldOperator(rangePredicate((order) => order < 0)),
  $lte: fieldOperator(rangePredicate((order) => order <= 0)),
  $in: setOperator('$in', false),
  $nin: setOperator('$nin', true),
};
