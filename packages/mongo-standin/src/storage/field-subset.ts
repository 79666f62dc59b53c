import { isPlainObject } from '../bson-values.ts';
import { asBuffer, elementEnd, KEPT_APART, nameEnd } from './bson-elements.ts';
import { ApartElements } from './record-parts.ts';

/**
 * The BSON bytes of a stored document's top-level fields named in each of `sets`, in their order: a stored
 * document is decoded only as far as a query needs it (a stream of one small served form out of a large
 * document decodes that form, not the rest). Elements are skipped by their lengths, never parsed. A head
 * (record-parts.ts) takes its large fields from `apart`, which is called only when one of them is wanted.
 */
export function fieldSubsets(
  stored: Uint8Array,
  sets: readonly ReadonlySet<string>[],
  apart?: () => Uint8Array,
): Buffer[] {
  const source = asBuffer(stored);
  const wanted = sets.map(encodedNames);
  // Each set's elements as [start, end) pairs: of the head, or of the fields apart for a start below 0
  // (at -1 - start). Offsets, not views: a view is an object to make and collect, several per read.
  const kept = sets.map((): number[] => []);
  const large = new ApartElements(apart);
  let position = 4;
  while (source[position] !== 0) {
    const start = position;
    const end = nameEnd(source, start);
    position = elementEnd(source, start, end);
    const keptApart = source[start] === KEPT_APART;
    for (let set = 0; set < wanted.length; set++) {
      // Names are compared as bytes, never decoded: most of a document's fields are not wanted.
      if (!isNamed(wanted[set]!.get(end - start - 1), source, start + 1)) continue;
      if (keptApart) kept[set]!.push(-1 - large.start(), large.end());
      else kept[set]!.push(start, position);
    }
    if (keptApart) large.pass();
  }
  return kept.map((ranges) => cut(source, large.bytes, ranges));
}

/** Whether one of `names` (all of one length) is the name at `at`. */
function isNamed(names: Buffer[] | undefined, source: Buffer, at: number): boolean {
  if (names === undefined) return false;
  for (const name of names) {
    let same = true;
    for (let i = 0; same && i < name.length; i++) same = name[i] === source[at + i];
    if (same) return true;
  }
  return false;
}

/** A BSON document of the elements at `ranges` (see fieldSubsets). */
function cut(head: Buffer, apart: Buffer | null, ranges: readonly number[]): Buffer {
  let size = 5;
  for (let i = 0; i < ranges.length; i += 2) size += ranges[i + 1]! - Math.max(ranges[i]!, -1 - ranges[i]!);
  const bytes = Buffer.allocUnsafe(size);
  bytes.writeInt32LE(size, 0);
  let offset = 4;
  for (let i = 0; i < ranges.length; i += 2) {
    const start = ranges[i]!;
    offset +=
      start < 0
        ? apart!.copy(bytes, offset, -1 - start, ranges[i + 1])
        : head.copy(bytes, offset, start, ranges[i + 1]);
  }
  bytes[offset] = 0;
  return bytes;
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

/**
 * What to read of each stored document: its top-level fields in `read`, and in `reply`, when the reply is a
 * plain inclusion of top-level fields, those cut for it from the stored bytes. Null: whole documents.
 * `shared` (without `reply`): the reader changes nothing in the documents it is given, so it may be given
 * documents kept from earlier reads (engine/kept-reads.ts).
 */
export type Fields = {
  read: ReadonlySet<string>;
  reply: ReadonlySet<string> | null;
  shared?: boolean;
} | null;

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
