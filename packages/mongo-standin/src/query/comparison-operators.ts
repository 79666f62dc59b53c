import { badValue } from '../errors.ts';
import { compareValues, typeRank, valuesEqual } from '../compare.ts';
import { isPlainObject } from '../bson-values.ts';
import { indexKey } from '../engine/index-key.ts';
import { candidates, fieldOperator, type FieldOperator, type Predicate } from './field-operator.ts';

/**
 * Query comparison operators with MongoDB's BSON semantics (numeric equality across int/long/double,
 * ObjectId/Date/Long ordering, type bracketing of range queries). They replace mingo's versions, which
 * compare class instances structurally.
 */
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

/**
 * Membership in a `$in` list, compiled once per query: scalar operands go in a set of index keys
 * (which are equal exactly when the values are), so a long list costs one lookup per value.
 */
/** Values compared by their index key; documents and arrays are compared structurally. */
const isScalar = (value: unknown): boolean => !Array.isArray(value) && !isPlainObject(value);

function membership(operands: unknown[]): (value: unknown) => boolean {
  const scalarKeys = new Set<string>();
  const regexes: RegExp[] = [];
  const others: unknown[] = [];
  for (const operand of operands) {
    if (operand instanceof RegExp) regexes.push(operand);
    else if (isScalar(operand)) scalarKeys.add(indexKey(operand));
    else others.push(operand);
  }
  const matchesNull = operands.some((operand) => operand === null);
  return (value) => {
    if (value === undefined) return matchesNull;
    return candidates(value).some(
      (v) =>
        (isScalar(v) && scalarKeys.has(indexKey(v))) ||
        (typeof v === 'string' && regexes.some((regex) => regex.test(v))) ||
        others.some((operand) => valuesEqual(v, operand)),
    );
  };
}

function setOperator(name: string, negate: boolean): FieldOperator {
  return (selector, operand, options) => {
    const isMember = membership(requireArray(name, operand));
    return fieldOperator((value) => isMember(value) !== negate)(selector, operand, options);
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
