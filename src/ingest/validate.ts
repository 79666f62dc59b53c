import type { EntityType } from '../hsds/entities.ts';
import { rowSchema } from './entity-schemas.ts';
import { describeSource, parsedRecord, type InputRecord } from './input-record.ts';
import { detectRecordType, recordSchema, type RecordType } from './record-type.ts';
import type { Json } from '../json.ts';
import { UNPAIRED_SURROGATE } from '../utf8.ts';

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
export function validateRecord(given: InputRecord, forcedType?: RecordType): Validated {
  const input = parsedRecord(given);
  const at = describeSource(input.source);
  if (input.error !== undefined) return { ok: false, rejections: [{ at, message: input.error }] };
  const shape = shapeOf(input.value);
  if (shape.problem) return { ok: false, rejections: [{ at, message: shape.problem }] };
  const value = shape.holdsNull ? copyWithoutNulls(input.value) : input.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, rejections: [{ at, message: 'a record must be a JSON object' }] };
  }
  // Where they are is worked out only for a record that has some.
  const reserved = shape.reservedNames ? reservedFieldNames(value) : [];
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
        {
          at,
          message:
            'cannot tell the record type from its fields; give the type explicitly (--type, or type= over HTTP)',
        },
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
    if (RESERVED_NAME.test(key) && found.length < MAX_RESERVED_REPORTED) {
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

const RESERVED_NAME = /^[_$]|\0/;

const HOLDS_UNPAIRED_SURROGATE = `a text in the record holds ${UNPAIRED_SURROGATE}`;

/** What one walk over a record finds: what makes it impossible to keep, and what the next steps need. */
interface Shape {
  /**
   * Nesting deeper than MAX_NESTING, a number beyond a double (`1e400` is read as Infinity, served as
   * null), or an unpaired surrogate.
   */
  problem?: string;
  /** Whether it holds a null anywhere: many publishers send `null` for "no value". */
  holdsNull: boolean;
  /** Whether a field (not null) has a reserved name (see `reservedFieldNames`). */
  reservedNames: boolean;
}

/**
 * One pass over every value of a record, without recursion (a record may be nested arbitrarily deep). Its
 * values and their depths on two stacks, an object's names read with `for…in` (a parsed record's objects
 * are plain): no pair or array allocated per value, which every record's check would otherwise pay for.
 */
function shapeOf(value: unknown): Shape {
  const shape: Shape = { holdsNull: false, reservedNames: false };
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const item = values.pop();
    const depth = depths.pop()!;
    if (item === null) shape.holdsNull = true;
    else if (typeof item === 'string' && !item.isWellFormed())
      return { ...shape, problem: HOLDS_UNPAIRED_SURROGATE };
    else if (typeof item === 'number' && !Number.isFinite(item)) {
      return { ...shape, problem: 'a number in the record is too large to keep (beyond ±1.8e308)' };
    } else if (typeof item === 'object') {
      if (depth > MAX_NESTING) {
        const problem = `a record must not be nested more than ${MAX_NESTING} levels deep (objects and arrays)`;
        return { ...shape, problem };
      }
      if (Array.isArray(item)) {
        for (const member of item) {
          values.push(member);
          depths.push(depth + 1);
        }
      } else {
        const object = item as Record<string, unknown>;
        for (const key in object) {
          if (!key.isWellFormed()) return { ...shape, problem: HOLDS_UNPAIRED_SURROGATE };
          const member = object[key];
          if (member !== null && RESERVED_NAME.test(key)) shape.reservedNames = true;
          values.push(member);
          depths.push(depth + 1);
        }
      }
    }
  }
  return shape;
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
