import { isPlainObject } from '../bson-values.ts';

/**
 * The BSON bytes of a document's top-level fields named in `fields`, in their order: a stored document is
 * decoded only as far as a query needs it (a stream of one small served form out of a large document
 * decodes that form, not the rest). Elements are skipped by their lengths, never parsed.
 */
export function fieldSubset(bytes: Uint8Array, fields: ReadonlySet<string>): Buffer {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const wanted = encodedNames(fields);
  const kept: Buffer[] = [];
  let size = 5;
  let position = 4;
  while (source[position] !== 0) {
    const start = position;
    const type = source[position]!;
    let nameEnd = position + 1;
    while (nameEnd < source.length && source[nameEnd] !== 0) nameEnd++;
    position = nameEnd + 1 + valueLength(source, type, nameEnd + 1);
    // Names are compared as bytes, never decoded: most of a document's fields are not wanted.
    const sameLength = wanted.get(nameEnd - start - 1);
    if (sameLength?.some((name) => source.compare(name, 0, name.length, start + 1, nameEnd) === 0)) {
      kept.push(source.subarray(start, position));
      size += position - start;
    }
  }
  const subset = Buffer.allocUnsafe(size);
  subset.writeInt32LE(size, 0);
  let offset = 4;
  for (const element of kept) offset += element.copy(subset, offset);
  subset[offset] = 0;
  return subset;
}

/**
 * A set of field names as UTF-8 bytes, by their length; made again if the set has grown or shrunk. The
 * sets given are built for a query and only ever grown before their first use, never changed after it.
 */
const encodedNamesOf = new WeakMap<ReadonlySet<string>, { size: number; byLength: Map<number, Buffer[]> }>();

function encodedNames(fields: ReadonlySet<string>): Map<number, Buffer[]> {
  const known = encodedNamesOf.get(fields);
  if (known?.size === fields.size) return known.byLength;
  const byLength = new Map<number, Buffer[]>();
  for (const field of fields) {
    const name = Buffer.from(field, 'utf8');
    byLength.set(name.length, [...(byLength.get(name.length) ?? []), name]);
  }
  encodedNamesOf.set(fields, { size: fields.size, byLength });
  return byLength;
}

/** The length of an element's value of BSON `type` starting at `at`. */
function valueLength(bytes: Buffer, type: number, at: number): number {
  switch (type) {
    case 0x01: // double
    case 0x09: // date
    case 0x11: // timestamp
    case 0x12: // int64
      return 8;
    case 0x02: // string
    case 0x0d: // JavaScript code
    case 0x0e: // symbol
      return 4 + bytes.readInt32LE(at);
    case 0x03: // document
    case 0x04: // array
    case 0x0f: // code with scope
      return bytes.readInt32LE(at);
    case 0x05: // binary: length, subtype, bytes
      return 5 + bytes.readInt32LE(at);
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      return 0;
    case 0x07: // ObjectId
      return 12;
    case 0x08: // boolean
      return 1;
    case 0x0b: {
      // regular expression: two C strings
      const patternEnd = bytes.indexOf(0, at);
      return bytes.indexOf(0, patternEnd + 1) + 1 - at;
    }
    case 0x0c: // DBPointer: string, then an ObjectId
      return 4 + bytes.readInt32LE(at) + 12;
    case 0x10: // int32
      return 4;
    case 0x13: // decimal128
      return 16;
    default:
      throw new Error(`unknown BSON type 0x${type.toString(16)} in a stored document`);
  }
}

/**
 * What to read of each stored document: its top-level fields in `read`, and in `reply`, when the reply is a
 * plain inclusion of top-level fields, those cut for it from the stored bytes. Null: whole documents.
 */
export type Fields = { read: ReadonlySet<string>; reply: ReadonlySet<string> | null } | null;

/**
 * What a find reads of each document: what its filter and sort read, and its projection shows (cut from
 * the stored bytes when it can be); null when it needs whole documents (no projection, an exclusion, an
 * expression that may read any field, or a filter operator that may: `$where`, `$expr`, `$text`, ...).
 */
export function findFields(filter: unknown, sort: unknown, projection: unknown): Fields {
  const reply = replyFields(projection);
  // With the reply cut from the stored bytes, documents are decoded only as far as filter and sort read.
  if (reply) return readOnly(filterFields(filter, sort), reply);
  const shown = shownFields(projection);
  const read = shown && filterFields(filter, sort);
  if (!read) return null;
  for (const field of shown!) read.add(field);
  return { read, reply: null };
}

/** What a count reads of each document: what its filter reads. */
export const countFields = (filter: unknown): Fields => readOnly(filterFields(filter, undefined), null);

const readOnly = (read: Set<string> | null, reply: ReadonlySet<string> | null): Fields =>
  read && { read, reply };

/** The top-level fields (with `_id`) a filter and a sort read; null when the filter may read any. */
export function filterFields(filter: unknown, sort: unknown): Set<string> | null {
  const fields = new Set<string>(['_id']);
  if (!addFilterFields(filter, fields)) return null;
  if (isPlainObject(sort)) for (const path of Object.keys(sort)) fields.add(head(path));
  return fields;
}

/**
 * The top-level fields the stages of a pipeline read of the documents it is given; null when they may read
 * any, or pass them out whole. The reading ends at a stage that makes documents of its own (`$count`, an
 * inclusion `$project`, `$facet` of such pipelines): the stages after it read those.
 */
export function pipelineFields(stages: readonly unknown[]): Set<string> | null {
  const fields = new Set<string>(['_id']);
  for (const stage of stages) {
    if (!isPlainObject(stage) || Object.keys(stage).length !== 1) return null;
    const [name, spec] = Object.entries(stage)[0]!;
    if (name === '$match') {
      if (!addFilterFields(spec, fields)) return null;
    } else if (name === '$sort') {
      if (!isPlainObject(spec)) return null;
      for (const path of Object.keys(spec)) fields.add(head(path));
    } else if (name === '$count') {
      return fields;
    } else if (name === '$project') {
      const shown = shownFields(spec);
      if (!shown) return null;
      for (const field of shown) fields.add(field);
      return fields;
    } else if (name === '$facet') {
      if (!isPlainObject(spec)) return null;
      for (const pipeline of Object.values(spec)) {
        const read = Array.isArray(pipeline) ? pipelineFields(pipeline) : null;
        if (!read) return null;
        for (const field of read) fields.add(field);
      }
      return fields;
    } else if (name !== '$skip' && name !== '$limit') {
      return null;
    }
  }
  return null;
}

/** The top-level fields an inclusion projection shows; null for any other projection, or none. */
function shownFields(projection: unknown): Set<string> | null {
  if (!isPlainObject(projection)) return null;
  const fields = new Set<string>();
  for (const [path, value] of Object.entries(projection)) {
    if (path === '_id' && (value === 0 || value === false)) continue;
    // Anything but a plain inclusion (an exclusion, `$slice`, an expression) may show any field.
    if (!(value === 1 || value === true || (typeof value === 'number' && value !== 0))) return null;
    fields.add(head(path));
  }
  // `{_id: 0}` alone excludes: every other field shows.
  return fields.size > 0 ? fields : null;
}

const head = (path: string) => path.split('.', 1)[0]!;

/** Adds the top-level fields a filter reads; false when it may read any. */
function addFilterFields(filter: unknown, fields: Set<string>): boolean {
  if (filter === undefined || filter === null) return true;
  if (!isPlainObject(filter)) return false;
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(condition) || !condition.every((clause) => addFilterFields(clause, fields)))
        return false;
    } else if (key === '$comment') {
      continue;
    } else if (key.startsWith('$')) {
      return false;
    } else {
      fields.add(head(key));
    }
  }
  return true;
}

/**
 * The top-level fields a projection shows when it is a plain inclusion of top-level fields (`_id` shown
 * unless excluded): its result is then those fields of the document, in the document's order. Null for
 * any other projection.
 */
export function replyFields(projection: unknown): Set<string> | null {
  if (!isPlainObject(projection)) return null;
  const fields = new Set<string>(['_id']);
  for (const [path, value] of Object.entries(projection)) {
    if (path === '_id' && (value === 0 || value === false)) fields.delete('_id');
    else if (path.includes('.') || path.startsWith('$') || !(value === 1 || value === true)) return null;
    else fields.add(path);
  }
  return fields.size > (fields.has('_id') ? 1 : 0) ? fields : null;
}
