import type { Document } from 'bson';
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { isPlainObject } from '../bson-values.ts';
import { badValue, indexNotFound, toCommandError } from '../errors.ts';
import { isKnownQueryOperator, mingoOptions } from './mingo-context.ts';
import { refuseProtoKeys } from './proto-paths.ts';
import { valuesAtParts } from './path-values.ts';
import { geoFieldTest } from '../geo/query-operators.ts';

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
  return directPredicate(checked, options) ?? mingoPredicate(checked, options);
}

function mingoPredicate(filter: Document, options: Partial<Options>): DocumentPredicate {
  try {
    const query = new Query(filter, options);
    return (doc) => query.test(doc);
  } catch (error) {
    throw toCommandError(error);
  }
}

/**
 * The commonest filters tested directly, since building a mingo query and running it costs more than the
 * test: string equality, `$in` of strings, `$ne` of a string or a boolean, `$geoIntersects` and
 * `$geoWithin`, on any path (`{id}`, `{_deps: {$in}}`, `{'_geo.covered': {$ne: true}}`), and `$or` and
 * `$and` of clauses, each tested directly where it can be, by mingo alone otherwise (a proximity search's
 * `$or` of listed postcodes, no coverage and areas holding its point). As in MongoDB, a path reaches
 * through arrays, and an array matches when any element does. Undefined for anything else, which goes to
 * mingo whole (its fields are looked at before any clause is compiled).
 */
function directPredicate(filter: Document, options: Partial<Options>): DocumentPredicate | undefined {
  const tests: DocumentPredicate[] = [];
  const logical: [string, Document[]][] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$or' || field === '$and') logical.push([field, condition as Document[]]);
    else {
      const test = field.startsWith('$') ? undefined : directFieldTest(field, condition);
      if (!test) return undefined;
      tests.push(test);
    }
  }
  for (const [operator, clauses] of logical) {
    const matchers = clauses.map(
      (clause) => directPredicate(clause, options) ?? mingoPredicate(clause, options),
    );
    tests.push(
      operator === '$or'
        ? (doc) => matchers.some((matches) => matches(doc))
        : (doc) => matchers.every((matches) => matches(doc)),
    );
  }
  return tests.length === 1 ? tests[0] : (doc) => tests.every((matches) => matches(doc));
}

/** A field's condition tested directly (see directPredicate); undefined for any other. */
function directFieldTest(field: string, condition: unknown): DocumentPredicate | undefined {
  const path = field.split('.');
  const any = (wanted: (value: unknown) => boolean) => (doc: Document) =>
    valuesAtParts(doc, path).some(wanted);
  if (typeof condition === 'string') return any((value) => value === condition);
  if (!isPlainObject(condition) || Object.keys(condition).length !== 1) return undefined;
  const { $in: among, $ne: other, $geoIntersects: intersecting, $geoWithin: within } = condition;
  // The same test as the query engine's operator (geo/query-operators.ts), without the engine.
  if (intersecting !== undefined) return geoFieldTest('$geoIntersects', field, intersecting);
  if (within !== undefined) return geoFieldTest('$geoWithin', field, within);
  if (Array.isArray(among) && among.every((value) => typeof value === 'string')) {
    const wanted = new Set<unknown>(among);
    return any((value) => wanted.has(value));
  }
  if (typeof other === 'string' || typeof other === 'boolean') {
    const equal = any((value) => value === other);
    return (doc) => !equal(doc);
  }
  return undefined;
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
