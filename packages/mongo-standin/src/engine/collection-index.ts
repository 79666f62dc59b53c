import { Long, ObjectId, type Document } from 'bson';
import { resolve } from 'mingo/util';
import { compareValues } from '../compare.ts';
import { DuplicateKeyError } from '../errors.ts';
import { pathValues } from '../query/path-values.ts';
import { indexKey } from './index-key.ts';
import type { IndexSpec } from './index-spec.ts';

export type DocumentPredicate = (doc: Document) => boolean;

interface KeyEntry {
  key: string;
  values: unknown[];
}

/**
 * One index of a collection. Ascending/descending indexes keep a hash map from key to document ids,
 * which serves equality lookups and unique constraints; 2dsphere and text indexes are definitions only
 * (their queries scan).
 */
export class CollectionIndex {
  readonly fields: string[];
  readonly isHashed: boolean;
  private readonly entries = new Map<string, Posting>();
  /** The keys in ascending order, computed when first needed after a key was added or removed. */
  private orderedKeys: string[] | null = null;
  /**
   * How many ids the postings before each of `orderedKeys` hold (one more entry: all of them), so that a
   * walk can start at its `skip`-th id without counting the ones before; recomputed after any change.
   */
  private idsBefore: number[] | null = null;
  /** Some document has an array on an indexed path: keys no longer give a document's sort order. */
  private multikey = false;
  private readonly partialFilter: DocumentPredicate | undefined;

  constructor(
    readonly spec: IndexSpec,
    compileFilter: (filter: Document) => DocumentPredicate,
  ) {
    this.fields = Object.keys(spec.key);
    this.isHashed = Object.values(spec.key).every((direction) => typeof direction === 'number');
    this.partialFilter = spec.partialFilterExpression
      ? compileFilter(spec.partialFilterExpression)
      : undefined;
  }

  /** `_id_` is unique without saying so in its spec, as listIndexes shows it on MongoDB. */
  get isUnique(): boolean {
    return this.isHashed && (this.spec.unique === true || this.spec.name === '_id_');
  }

  /** Whether a lookup returns every document with that value (sparse and partial indexes omit some). */
  get isComplete(): boolean {
    return this.isHashed && !this.spec.sparse && !this.partialFilter;
  }

  /** The keys a document has in this index; multikey fields give one key per element. */
  private keyEntries(doc: Document): KeyEntry[] {
    if (!this.isHashed) return [];
    if (this.partialFilter && !this.partialFilter(doc)) return [];
    const perField = this.fields.map((field) => pathValues(doc, field));
    if (this.spec.sparse && perField.every((values) => values.length === 0)) return [];
    if (perField.length === 1) return singleFieldEntries(perField[0]!);
    let combos: KeyEntry[] = [{ key: '', values: [] }];
    for (const values of perField) {
      const choices = values.length === 0 ? [null] : values;
      combos = combos.flatMap((combo) =>
        choices.map((value) => ({
          key: combo.values.length === 0 ? indexKey(value) : `${combo.key}\u0000${indexKey(value)}`,
          values: [...combo.values, value],
        })),
      );
    }
    return dedupe(combos);
  }

  add(doc: Document, id: string): void {
    this.noteArrays(doc);
    for (const entry of this.keyEntries(doc)) this.addKey(entry, id);
  }

  remove(doc: Document, id: string): void {
    for (const { key } of this.keyEntries(doc)) this.removeKey(key, id);
  }

  /** Moves a document from its previous keys to its next ones, leaving the keys both have alone. */
  update(previous: Document, next: Document, id: string): void {
    this.noteArrays(next);
    const before = this.keyEntries(previous);
    const after = this.keyEntries(next);
    const afterKeys = new Set(after.map((entry) => entry.key));
    const beforeKeys = new Set(before.map((entry) => entry.key));
    for (const { key } of before) if (!afterKeys.has(key)) this.removeKey(key, id);
    for (const entry of after) if (!beforeKeys.has(entry.key)) this.addKey(entry, id);
  }

  private noteArrays(doc: Document): void {
    if (!this.multikey && this.isHashed && this.fields.some((field) => Array.isArray(resolve(doc, field))))
      this.multikey = true;
  }

  private addKey({ key, values }: KeyEntry, id: string): void {
    this.idsBefore = null;
    const posting = this.entries.get(key);
    if (!posting) {
      this.entries.set(key, { value: values[0], ids: id });
      this.orderedKeys = null;
    } else if (typeof posting.ids === 'string') {
      if (posting.ids !== id) posting.ids = new Set([posting.ids, id]);
    } else {
      posting.ids.add(id);
    }
  }

  private removeKey(key: string, id: string): void {
    const posting = this.entries.get(key);
    if (!posting) return;
    this.idsBefore = null;
    if (typeof posting.ids !== 'string') posting.ids.delete(id);
    if (posting.ids === id || (typeof posting.ids !== 'string' && posting.ids.size === 0)) {
      this.entries.delete(key);
      this.orderedKeys = null;
    }
  }

  /**
   * Whether walking this index gives documents in the order of `{field: direction}`: a complete
   * single-field index that no document made multikey (an array sorts by its smallest or largest
   * element, not by each of its keys).
   */
  servesSort(field: string): boolean {
    return this.isComplete && this.fields.length === 1 && this.fields[0] === field && !this.multikey;
  }

  /**
   * Document ids in key order (equal keys in the order they were indexed), from the `skip`-th on: the
   * walk starts at the key holding that id, found by bisecting the counts of ids before each key.
   */
  *idsInOrder(direction: 1 | -1, skip = 0): Generator<string> {
    this.orderedKeys ??= [...this.entries.keys()].sort((a, b) =>
      compareValues(this.entries.get(a)?.value, this.entries.get(b)?.value),
    );
    const keys = this.orderedKeys;
    let first = 0;
    let toSkip = skip;
    if (skip > 0) {
      const idsBefore = (this.idsBefore ??= this.countIdsBefore(keys));
      const total = idsBefore[keys.length]!;
      // Ids before the key at walk position i: ascending, those of the keys before it; descending, after.
      const before = (i: number) => (direction === 1 ? idsBefore[i]! : total - idsBefore[keys.length - i]!);
      for (let last = keys.length - 1; first < last;) {
        const middle = Math.ceil((first + last) / 2);
        if (before(middle) <= skip) first = middle;
        else last = middle - 1;
      }
      toSkip = skip - before(first);
    }
    for (let i = first; i < keys.length; i++) {
      for (const id of idsOf(this.entries.get(keys[direction === 1 ? i : keys.length - 1 - i]!))) {
        if (toSkip > 0) toSkip--;
        else yield id;
      }
    }
  }

  private countIdsBefore(keys: string[]): number[] {
    const counts = [0];
    for (const key of keys) {
      const ids = this.entries.get(key)?.ids;
      counts.push(counts.at(-1)! + (ids === undefined ? 0 : typeof ids === 'string' ? 1 : ids.size));
    }
    return counts;
  }

  /** Ids of documents whose single-field key equals `value`. */
  lookup(value: unknown): Iterable<string> {
    return idsOf(this.entries.get(indexKey(value)));
  }

  /**
   * The E11000 error `doc` would raise against the documents already indexed, if any; `self` is the
   * id of the stored document it replaces (null for a new document).
   */
  duplicateOf(doc: Document, self: string | null, namespace: string): DuplicateKeyError | null {
    if (!this.isUnique) return null;
    for (const entry of this.keyEntries(doc)) {
      const ids = idsOf(this.entries.get(entry.key));
      if ([...ids].some((other) => other !== self)) return this.duplicateKeyError(entry.values, namespace);
    }
    return null;
  }

  private duplicateKeyError(values: unknown[], namespace: string): DuplicateKeyError {
    const keyValue: Record<string, unknown> = {};
    this.fields.forEach((field, i) => (keyValue[field] = values[i] ?? null));
    const shown = this.fields.map((field) => `${field}: ${formatValue(keyValue[field])}`).join(', ');
    return new DuplicateKeyError(
      `E11000 duplicate key error collection: ${namespace} index: ${this.spec.name} dup key: { ${shown} }`,
      { ...this.spec.key },
      keyValue,
    );
  }
}

/**
 * The documents with one key and a value of that key (to order keys by). Most keys of an index
 * belong to one document, which is then held without a set of its own.
 */
interface Posting {
  value: unknown;
  ids: string | Set<string>;
}

const idsOf = (posting: Posting | undefined): Iterable<string> =>
  posting === undefined ? [] : typeof posting.ids === 'string' ? [posting.ids] : posting.ids;

/** The common case of one field, without building combinations: one key per distinct value. */
function singleFieldEntries(values: unknown[]): KeyEntry[] {
  if (values.length === 0) return [{ key: indexKey(null), values: [null] }];
  if (values.length === 1) return [{ key: indexKey(values[0]), values }];
  const entries = new Map<string, KeyEntry>();
  for (const value of values) {
    const key = indexKey(value);
    if (!entries.has(key)) entries.set(key, { key, values: [value] });
  }
  return [...entries.values()];
}

function dedupe(entries: KeyEntry[]): KeyEntry[] {
  const seen = new Map<string, KeyEntry>();
  for (const entry of entries) if (!seen.has(entry.key)) seen.set(entry.key, entry);
  return [...seen.values()];
}

/** Values as MongoDB prints them in duplicate key messages. */
function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (value instanceof Long) return value.toString();
  if (Array.isArray(value)) return `[ ${value.map(formatValue).join(', ')} ]`;
  if (typeof value === 'object' && value.constructor === Object)
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${k}: ${formatValue(v)}`)
      .join(', ')} }`;
  return String(value);
}
