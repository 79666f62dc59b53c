import { badValue } from '../errors.ts';

/**
 * Refuses a field path with a `__proto__` part. MongoDB treats `__proto__` as an ordinary field name, but
 * mingo ignores it in a filter (`{__proto__: 5}` would match, and delete, every document), copies of
 * update values drop it, and in plain JavaScript it names the prototype. The stand-in keeps documents
 * holding such a field intact (inserted or replaced); naming it in a filter, update, projection, sort,
 * index key or pipeline is an error here rather than a different answer.
 */
export function refuseProtoPath(path: string): void {
  if (path.split('.').includes('__proto__'))
    throw badValue(`The MongoDB stand-in does not support field paths through '__proto__': '${path}'`);
}

/** `refuseProtoPath` for every key of a specification, however deep (conditions, update values, stages). */
export function refuseProtoKeys(spec: unknown): void {
  if (Array.isArray(spec)) for (const item of spec) refuseProtoKeys(item);
  else if (spec !== null && typeof spec === 'object' && Object.getPrototypeOf(spec) === Object.prototype)
    for (const key of Object.keys(spec)) {
      refuseProtoPath(key);
      refuseProtoKeys((spec as Record<string, unknown>)[key]);
    }
}

/**
 * Update operators that mingo applies correctly to a field named like an `Object.prototype` member
 * (`$setOnInsert` is applied as a `$set`).
 */
const MEMBER_SAFE_OPERATORS = new Set(['$set', '$setOnInsert', '$unset']);

/**
 * Refuses an update of a field named like a member of every JavaScript object (`constructor`, `toString`,
 * …) other than a `$set` or `$unset` of that field itself: mingo's updater reads the inherited member there
 * (and through it, for a path below) and leaves the document unchanged, so an `$inc`, a `$push` or a `$set`
 * of `toString.a` would be acknowledged and lost.
 */
export function refuseObjectMemberPath(operator: string, path: string): void {
  const parts = path.split('.');
  const member = parts.find(
    (part, index) =>
      part in Object.prototype && (index < parts.length - 1 || !MEMBER_SAFE_OPERATORS.has(operator)),
  );
  if (member !== undefined)
    throw badValue(
      `The MongoDB stand-in does not support ${operator} on a field named '${member}' (a JavaScript object member): '${path}'`,
    );
}
