import type { EntityType } from './entities.ts';
import { rowSchema } from './entity-schemas.ts';
import { describeSource, type InputRecord } from './input-record.ts';
import { detectRecordType, recordSchema, type RecordType } from './record-type.ts';

type Json = Record<string, unknown>;

export interface Rejection {
  /** Where the record is: file and line, row or array position. */
  at: string;
  /** The JSON path inside the record of what is wrong, e.g. `$.phones[0].number`. */
  path?: string;
  message: string;
}

export type Validated =
  | { ok: true; type: RecordType; record: Json }
  | { ok: true; entity: EntityType; row: Json }
  | { ok: false; rejections: Rejection[] };

/**
 * Checks one input record against the HSDS schema of its type. Nulls are dropped first: many publishers
 * send `null` for "no value", which HSDS spells by leaving the field out.
 */
export function validateRecord(input: InputRecord, forcedType?: RecordType): Validated {
  const at = describeSource(input.source);
  if (input.error !== undefined) return { ok: false, rejections: [{ at, message: input.error }] };
  const shapeProblem = unstorableShape(input.value);
  if (shapeProblem) return { ok: false, rejections: [{ at, message: shapeProblem }] };
  const value = withoutNulls(input.value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, rejections: [{ at, message: 'a record must be a JSON object' }] };
  }
  const reserved = reservedFieldNames(value);
  if (reserved.length > 0) return { ok: false, rejections: reserved.map((path) => ({ at, ...path })) };
  if (input.entity !== undefined) {
    const result = rowSchema[input.entity].safeParse(value);
    if (result.success) return { ok: true, entity: input.entity, row: result.data as Json };
    return { ok: false, rejections: rejectionsOf(at, input.entity, result.error.issues) };
  }
  const type = forcedType ?? input.type ?? detectRecordType(value as Json);
  if (type === undefined) {
    return {
      ok: false,
      rejections: [
        { at, message: 'cannot tell the record type from its fields; give the type explicitly (--type)' },
      ],
    };
  }
  const result = recordSchema[type].safeParse(value);
  if (result.success) return { ok: true, type, record: result.data as Json };
  return { ok: false, rejections: rejectionsOf(at, type, result.error.issues) };
}

function rejectionsOf(
  at: string,
  kind: string,
  issues: { path: PropertyKey[]; message: string }[],
): Rejection[] {
  return issues.map((issue) => ({ at, path: jsonPath(issue.path), message: `${kind}: ${issue.message}` }));
}

function jsonPath(path: PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`),
    '$',
  );
}

/** At most this many reserved field names are reported per record. */
const MAX_RESERVED_REPORTED = 10;

/**
 * Field names the database cannot store as given, at any depth: those starting with `$` (MongoDB refuses
 * them in a replacement, so such a record could be inserted once and never updated) or containing a NUL
 * character (BSON cannot encode it), and those starting with `_`, which this server keeps for its own
 * bookkeeping in rows and documents (`_id`, `_hash`, `_position`, …). HSDS names none of them like that.
 */
function reservedFieldNames(value: unknown, path = '$', found: Omit<Rejection, 'at'>[] = []) {
  if (found.length >= MAX_RESERVED_REPORTED || value === null || typeof value !== 'object') return found;
  if (Array.isArray(value)) {
    value.forEach((item, index) => reservedFieldNames(item, `${path}[${index}]`, found));
    return found;
  }
  for (const [key, field] of Object.entries(value)) {
    const at = /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
    if (/^[_$]|\0/.test(key) && found.length < MAX_RESERVED_REPORTED) {
      found.push({
        path: at,
        message: `field name ${JSON.stringify(key)} is reserved: names starting with "_" or "$", or holding a NUL character, cannot be stored`,
      });
    }
    reservedFieldNames(field, at, found);
  }
  return found;
}

/**
 * Deeper than any HSDS record (a few levels), and than the nested documents it ends up in can hold:
 * MongoDB stores at most 100 levels, and a record is embedded a level or two down (an organization in a
 * service in a service at location). Checked first, and without recursion: every later step recurses.
 */
const MAX_NESTING = 64;

/**
 * What makes a record impossible to keep as given, whatever its type: nesting deeper than MAX_NESTING, or
 * a number beyond what JSON text read as a double can hold (`1e400` is read as Infinity, which would be
 * served as null).
 */
function unstorableShape(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'number' && !Number.isFinite(item)) {
      return 'a number in the record is too large to keep (beyond ±1.8e308)';
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth > MAX_NESTING) {
      return `a record must not be nested more than ${MAX_NESTING} levels deep (objects and arrays)`;
    }
    for (const member of Array.isArray(item) ? item : Object.values(item)) stack.push([member, depth + 1]);
  }
  return undefined;
}

/** Returns the value itself when it holds no null (the usual case), a copy without them otherwise. */
function withoutNulls(value: unknown): unknown {
  return holdsNull(value) ? copyWithoutNulls(value) : value;
}

function holdsNull(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value !== 'object') return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (holdsNull(item)) return true;
  return false;
}

function copyWithoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== null).map(copyWithoutNulls);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, field]) => field !== null)
        .map(([key, field]) => [key, copyWithoutNulls(field)]),
    );
  }
  return value;
}
