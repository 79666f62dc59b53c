import type { Document } from 'bson';
import { isPlainObject } from '../bson-values.ts';
import { valuesEqual } from '../compare.ts';
import { badValue, conflictingUpdateOperators, typeMismatch } from '../errors.ts';
import { formatValue, typeName } from 'geojson-sphere';
import { refuseObjectMemberPath, refuseProtoKeys } from './proto-paths.ts';

/**
 * The step between an operator update and mingo's updater: MongoDB's checks that mingo skips (two
 * operators on overlapping paths, arithmetic on non-numbers, array operators on non-arrays), which
 * fail the update before any change, and the rewrites mingo needs to match MongoDB's result.
 */
export function prepareModifier(doc: Document, update: Document, inserting: boolean): Document {
  const { $setOnInsert, ...modifier } = update;
  if (inserting && isPlainObject($setOnInsert)) modifier.$set = { ...(modifier.$set ?? {}), ...$setOnInsert };
  for (const [operator, fields] of Object.entries(modifier))
    for (const path of Object.keys(fields as Document)) checkOperand(doc, operator, path);
  return isPlainObject(modifier.$addToSet) ? addToSetAsPush(doc, modifier) : modifier;
}

/**
 * MongoDB's checks of an operator update that need no document: they fail the update even when it
 * matches nothing.
 */
export function checkModifier(update: Document): void {
  refuseProtoKeys(update);
  assertNoConflicts(update);
  for (const [operator, fields] of Object.entries(update)) {
    if (isPlainObject(fields)) for (const path of Object.keys(fields)) refuseObjectMemberPath(operator, path);
    const verb = ARITHMETIC[operator];
    if (!verb || !isPlainObject(fields)) continue;
    for (const [path, operand] of Object.entries(fields))
      if (!NUMERIC_TYPES.has(typeName(operand)))
        throw typeMismatch(`Cannot ${verb} with non-numeric argument: {${path}: ${formatValue(operand)}}`);
  }
}

/** Code 40 when a path is updated twice, or together with a path inside it. */
function assertNoConflicts(update: Document): void {
  const seen: string[] = [];
  for (const fields of Object.values(update)) {
    if (!isPlainObject(fields)) continue;
    for (const path of Object.keys(fields)) {
      const other = seen.find((earlier) => overlaps(earlier, path));
      if (other !== undefined)
        throw conflictingUpdateOperators(
          `Updating the path '${path}' would create a conflict at '${other.length < path.length ? other : path}'`,
        );
      seen.push(path);
    }
  }
}

const overlaps = (a: string, b: string): boolean => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/** Where a path cannot be followed without the update's own rules (positional parts, arrays). */
const UNRESOLVED = Symbol('unresolved');

/** The value at a plain dotted path (undefined when missing). */
function valueAt(doc: Document, path: string): unknown {
  let node: unknown = doc;
  for (const part of path.split('.')) {
    if (part.startsWith('$')) return UNRESOLVED;
    if (Array.isArray(node)) {
      if (!/^\d+$/.test(part)) return UNRESOLVED;
      node = node[Number(part)];
    } else if (isPlainObject(node)) {
      // Own fields only: a field named `constructor` or `toString` is not what objects inherit.
      node = Object.hasOwn(node, part) ? node[part] : undefined;
    } else {
      return node === undefined ? undefined : UNRESOLVED;
    }
  }
  return node;
}

const NUMERIC_TYPES = new Set(['int', 'long', 'double', 'decimal']);
const ARITHMETIC: Record<string, string> = { $inc: 'increment', $mul: 'multiply' };

/** MongoDB's checks of an operator against the value the document holds at `path`. */
function checkOperand(doc: Document, operator: string, path: string): void {
  const field = path.slice(path.lastIndexOf('.') + 1);
  const current = valueAt(doc, path);
  const inDocument = `{_id: ${formatValue(doc._id)}}`;
  if (ARITHMETIC[operator]) {
    if (current !== undefined && current !== UNRESOLVED && !NUMERIC_TYPES.has(typeName(current)))
      throw typeMismatch(
        `Cannot apply ${operator} to a value of non-numeric type. ${inDocument} has the field '${field}' of non-numeric type ${typeName(current)}`,
      );
  }
  if (current === undefined || current === UNRESOLVED || Array.isArray(current)) return;
  if (operator === '$push')
    throw badValue(
      `The field '${field}' must be an array but is of type ${typeName(current)} in document ${inDocument}`,
    );
  if (operator === '$addToSet')
    throw badValue(
      `Cannot apply $addToSet to non-array field. Field named '${field}' has non-array type ${typeName(current)}`,
    );
}

/**
 * `$addToSet` on plain paths as a `$push` of the values the array lacks: MongoDB adds each absent
 * value once and leaves duplicates already stored alone (mingo's deduplicates the whole array).
 */
function addToSetAsPush(doc: Document, modifier: Document): Document {
  const { $addToSet, ...rest } = modifier;
  const kept: Document = {};
  const push: Document = { ...(rest.$push ?? {}) };
  for (const [path, spec] of Object.entries($addToSet as Document)) {
    const current = valueAt(doc, path);
    if (current === UNRESOLVED) {
      kept[path] = spec;
      continue;
    }
    const values: unknown[] = isPlainObject(spec) && Array.isArray(spec.$each) ? spec.$each : [spec];
    const present = Array.isArray(current) ? [...current] : [];
    const added: unknown[] = [];
    for (const value of values)
      if (!present.some((existing) => valuesEqual(existing, value))) {
        present.push(value);
        added.push(value);
      }
    if (current === undefined || added.length > 0) push[path] = { $each: added };
  }
  return {
    ...rest,
    ...(Object.keys(push).length > 0 ? { $push: push } : {}),
    ...(Object.keys(kept).length > 0 ? { $addToSet: kept } : {}),
  };
}
