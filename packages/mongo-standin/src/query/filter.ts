import type { Document } from 'bson';
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { isPlainObject } from '../bson-values.ts';
import { badValue, indexNotFound, toCommandError } from '../errors.ts';
import { isKnownQueryOperator, mingoOptions } from './mingo-context.ts';
import { refuseProtoKeys } from './proto-paths.ts';

export type DocumentPredicate = (doc: Document) => boolean;

const LOGICAL_OPERATORS = new Set(['$and', '$or', '$nor']);
const GEO_NEAR_OPERATORS = new Set(['$near', '$nearSphere', '$geoNear']);

/**
 * Compiles a query filter into a predicate, first rejecting what MongoDB rejects with MongoDB's error
 * (mingo would throw its own messages, or accept operators MongoDB does not know).
 */
export function compileFilter(
  filter: Document,
  options: Partial<Options> = mingoOptions(),
): DocumentPredicate {
  if (!isPlainObject(filter)) throw badValue('filter must be an object');
  refuseProtoKeys(filter);
  const checked = validateTopLevel(filter);
  if (Object.keys(checked).length === 0) return () => true;
  const direct = stringMembershipPredicate(checked);
  if (direct) return direct;
  try {
    const query = new Query(checked, options);
    return (doc) => query.test(doc);
  } catch (error) {
    throw toCommandError(error);
  }
}

/**
 * The commonest filters, string equality or `$in` of strings on top-level fields (`{id}`, `{id: {$in}}`,
 * `{_deps: {$in}}`), tested directly: building a mingo query costs more than testing a document. Like
 * MongoDB, a field holding an array matches when any element does. Anything else goes to mingo.
 */
function stringMembershipPredicate(filter: Document): DocumentPredicate | undefined {
  const conditions: [string, Set<string>][] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) return undefined;
    if (typeof condition === 'string') conditions.push([field, new Set([condition])]);
    else if (
      isPlainObject(condition) &&
      Object.keys(condition).length === 1 &&
      Array.isArray(condition.$in) &&
      condition.$in.every((value) => typeof value === 'string')
    ) {
      conditions.push([field, new Set(condition.$in as string[])]);
    } else return undefined;
  }
  const holds = (value: unknown, wanted: Set<string>) =>
    typeof value === 'string'
      ? wanted.has(value)
      : Array.isArray(value) && value.some((item) => typeof item === 'string' && wanted.has(item));
  return (doc) => conditions.every(([field, wanted]) => holds(doc[field], wanted));
}

/** Returns the filter without `$comment`, throwing on operators MongoDB would refuse. */
function validateTopLevel(filter: Document): Document {
  const out: Document = {};
  for (const [key, value] of Object.entries(filter)) {
    if (!key.startsWith('$')) {
      validateFieldCondition(value);
      out[key] = value;
    } else if (LOGICAL_OPERATORS.has(key)) {
      if (!Array.isArray(value) || value.length === 0)
        throw badValue('$and/$or/$nor must be a nonempty array');
      out[key] = value.map((clause) => {
        if (!isPlainObject(clause)) throw badValue('$or/$and/$nor entries need to be full objects');
        return validateTopLevel(clause);
      });
    } else if (key === '$comment') {
      continue;
    } else if (key === '$expr' || key === '$jsonSchema') {
      out[key] = value;
    } else if (key === '$text') {
      throw indexNotFound('text index required for $text query');
    } else if (key === '$where') {
      throw badValue('no globalScriptEngine in $where parsing');
    } else {
      throw badValue(
        `unknown top level operator: ${key}. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.`,
      );
    }
  }
  return out;
}

function validateFieldCondition(condition: unknown): void {
  if (!isPlainObject(condition)) return;
  const keys = Object.keys(condition);
  if (!keys[0]?.startsWith('$')) return;
  for (const operator of keys) {
    const operand = condition[operator];
    if (GEO_NEAR_OPERATORS.has(operator))
      throw badValue('$geoNear, $near, and $nearSphere are not allowed in this context');
    if (!isKnownQueryOperator(operator) && operator !== '$options')
      throw badValue(`unknown operator: ${operator}`);
    if (operator === '$not') {
      if (!isPlainObject(operand) && !(operand instanceof RegExp))
        throw badValue('$not needs a regex or a document');
      validateFieldCondition(operand);
    }
    if (operator === '$elemMatch') {
      if (!isPlainObject(operand)) throw badValue('$elemMatch needs an Object');
      if (Object.keys(operand)[0]?.startsWith('$') && !LOGICAL_OPERATORS.has(Object.keys(operand)[0]!))
        validateFieldCondition(operand);
      else validateTopLevel(operand);
    }
  }
}
