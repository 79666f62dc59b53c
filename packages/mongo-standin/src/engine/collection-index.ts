import { Long, ObjectId, type Document } from 'bson';
import { resolve } from 'mingo/util';
import { DuplicateKeyError } from '../errors.ts';
import { pathValues } from '../query/path-values.ts';
import { encodeKey, storedKey } from '../storage/key-encoding.ts';
import { typeRank, TypeRank } from '../compare.ts';
import type { IndexEntries } from '../storage/index-entries.ts';
import type { IndexEntry } from '../storage/storage.ts';
import type { IndexSpec } from './index-spec.ts';
import { RecordIds } from './record-ids.ts';

export type DocumentPredicate = (doc: Document) => boolean;

/** Range walks an index keeps between writes, and the most ids one may hold to be kept. */
const MAX_WALKS_KEPT = 4;
const MAX_IDS_KEPT = 100_000;

/** A range condition's bounds, of one type (see `Collection`'s planner). */
export interface RangeBounds {
  low?: unknown;
  lowIncluded: boolean;
  high?: unknown;
  highIncluded: boolean;
}

export interface KeyEntry {
  /** The key as stored (cut short when too long for LMDB). */
  key: Buffer;
  truncated: boolean;
  values: unknown[];
}

/**
 * One index of a collection. Ascending/descending indexes keep their keys in an LMDB table (key bytes in
 * MongoDB's order, each with the record ids of the documents holding it: IndexEntries), which serves equality lookups, walks
 * in key order and unique constraints; a single-field 2dsphere index keeps cells instead (GeoIndex);
 * other 2dsphere and text indexes are definitions only (their queries scan). Call the writing methods
 * within a write transaction.
 */
export class CollectionIndex {
  readonly fields: string[];
  readonly isHashed: boolean;
  protected readonly partialFilter: DocumentPredicate | undefined;

  /** Ranges walked since the last write, by their start and end keys (see `idsInRange`). */
  private readonly walks = new Map<string, ReadonlySet<number>>();
  /** The whole index's order read since the last write (see `keptIdsInOrder`). */
  private wholeOrder: readonly number[] | undefined;
  private walksGeneration = -1;

  constructor(
    readonly entry: IndexEntry,
    protected readonly table: IndexEntries | null,
    compileFilter: (filter: Document) => DocumentPredicate,
    /** The storage's write generation (`Storage.generation`): odd while a write runs. */
    private readonly generation: () => number,
  ) {
    this.fields = Object.keys(entry.spec.key);
    this.isHashed = table !== null;
    this.partialFilter = entry.spec.partialFilterExpression
      ? compileFilter(entry.spec.partialFilterExpression)
      : undefined;
  }

  get spec(): IndexSpec {
    return this.entry.spec;
  }

  /** `_id_` is unique without saying so in its spec, as listIndexes shows it on MongoDB. */
  get isUnique(): boolean {
    return this.isHashed && (this.spec.unique === true || this.spec.name === '_id_');
  }

  /** Whether a lookup returns every document with that value (sparse and partial indexes omit some). */
  get isComplete(): boolean {
    return this.isHashed && !this.spec.sparse && !this.partialFilter;
  }

  /**
   * Whether lookups of these values return every document holding one of them: a sparse index leaves
   * out only documents without the field, which no value but null matches.
   */
  holdsAll(values: readonly unknown[]): boolean {
    if (this.isComplete) return true;
    return this.isHashed && !this.partialFilter && values.every((value) => value !== null);
  }

  /** The keys a document has in this index; multikey fields give one key per element. */
  protected keyEntries(doc: Document): KeyEntry[] {
    if (!this.isHashed) return [];
    if (this.partialFilter && !this.partialFilter(doc)) return [];
    if (this.fields.length === 1) return this.singleFieldEntries(pathValues(doc, this.fields[0]!));
    const perField = this.fields.map((field) => pathValues(doc, field));
    if (this.spec.sparse && perField.every((values) => values.length === 0)) return [];
    let combos: unknown[][] = [[]];
    for (const values of perField) {
      const choices = values.length === 0 ? [null] : values;
      combos = combos.flatMap((combo) => choices.map((value) => [...combo, value]));
    }
    if (combos.length === 1) return [{ ...storedKey(combos[0]!), values: combos[0]! }];
    const entries = new Map<string, KeyEntry>();
    for (const values of combos) {
      const { key, truncated } = storedKey(values);
      const hex = key.toString('latin1');
      if (!entries.has(hex)) entries.set(hex, { key, truncated, values });
    }
    return [...entries.values()];
  }

  /** `keyEntries` of a single-field index (most are): each distinct value's key, without combining fields. */
  private singleFieldEntries(values: unknown[]): KeyEntry[] {
    if (values.length === 0) return this.spec.sparse ? [] : [{ ...storedKey([null]), values: [null] }];
    if (values.length === 1) return [{ ...storedKey(values), values }];
    const entries = new Map<string, KeyEntry>();
    for (const value of values) {
      const { key, truncated } = storedKey([value]);
      const bytes = key.toString('latin1');
      if (!entries.has(bytes)) entries.set(bytes, { key, truncated, values: [value] });
    }
    return [...entries.values()];
  }

  /** Indexes a document; true when this made the index multikey (the catalog must say so). */
  add(doc: Document, id: number): boolean {
    for (const { key } of this.keyEntries(doc)) this.table!.add(key, id);
    return this.noteArrays(doc);
  }

  remove(doc: Document, id: number): void {
    for (const { key } of this.keyEntries(doc)) this.table!.remove(key, id);
  }

  /** Moves a document from its previous keys to its next ones, leaving the keys both have alone. */
  update(previous: Document, next: Document, id: number): boolean {
    const before = this.keyEntries(previous);
    const after = this.keyEntries(next);
    const afterKeys = new Set(after.map((entry) => entry.key.toString('latin1')));
    const beforeKeys = new Set(before.map((entry) => entry.key.toString('latin1')));
    for (const { key } of before) if (!afterKeys.has(key.toString('latin1'))) this.table!.remove(key, id);
    for (const { key } of after) if (!beforeKeys.has(key.toString('latin1'))) this.table!.add(key, id);
    return this.noteArrays(next);
  }

  protected noteArrays(doc: Document): boolean {
    if (this.entry.multikey || !this.isHashed) return false;
    if (!this.fields.some((field) => Array.isArray(resolve(doc, field)))) return false;
    this.entry.multikey = true;
    return true;
  }

  /**
   * Whether walking this index gives documents in the order of `{field: direction}`: a complete
   * single-field index that no document made multikey (an array sorts by its smallest or largest
   * element, not by each of its keys).
   */
  servesSort(field: string): boolean {
    return this.isComplete && this.fields.length === 1 && this.fields[0] === field && !this.entry.multikey;
  }

  /** Record ids in key order (equal keys by record id), from the `skip`-th on. */
  idsInOrder(direction: 1 | -1, skip = 0): Generator<number> {
    return this.table!.idsInOrder(direction, skip);
  }

  /**
   * Record ids in key order, as `idsInOrder` gives them, read whole and kept until the next write (see
   * `walked`) when the index holds few enough: sorted pages among many candidates, each request a
   * different filter, then pass over the ids in memory rather than walk LMDB (a page's walk stops once it
   * has its documents, so a walk given as it goes would seldom reach the end to be kept). A larger index,
   * or one read while a write runs (which could not keep it), is walked as it goes.
   */
  *keptIdsInOrder(direction: 1 | -1): Generator<number> {
    this.forgetStaleWalks();
    let kept = this.wholeOrder;
    const generation = this.generation();
    if (!kept && generation % 2 === 0 && this.table!.size() <= MAX_IDS_KEPT) {
      kept = this.table!.allIds();
      if (this.keeps(generation, kept.length)) this.wholeOrder = kept;
    }
    if (!kept) return yield* this.idsInOrder(direction);
    if (direction === 1) yield* kept;
    else for (let at = kept.length - 1; at >= 0; at--) yield kept[at]!;
  }

  /** Record ids of documents whose single-field key equals `value` (a superset when the key is cut). */
  lookup(value: unknown): number[] {
    return this.lookupExactly(value).ids;
  }

  /** `lookup`, saying whether the ids are exactly those documents (a key cut short gives a superset). */
  lookupExactly(value: unknown): { ids: number[]; exact: boolean } {
    const { key, truncated } = storedKey([value]);
    return { ids: this.idsUnder(key), exact: !truncated };
  }

  /**
   * Record ids of documents with a single-field key in the range, whose bounds are of one type (the range
   * stays within it, as MongoDB brackets comparisons by type). Exact for strings, dates and ObjectIds on
   * one bound, or on two when no document made the index multikey (an array may hold a value above the
   * low bound and another below the high one); numbers, whose keys are doubles, and bounds too long for a
   * key narrow only.
   */
  idsInRange({ low, lowIncluded, high, highIncluded }: RangeBounds): {
    ids: ReadonlySet<number>;
    exact: boolean;
  } {
    const bound = low ?? high;
    const typeByte = encodeKey([bound])[0]!;
    let start: Buffer = Buffer.from([typeByte]);
    let end: Buffer = Buffer.from([typeByte + 1]);
    let exact = typeRank(bound) !== TypeRank.Number;
    let bounded = 0;
    if (low !== undefined) {
      const { key, truncated } = storedKey([low]);
      start = lowIncluded ? key : Buffer.concat([key, AFTER_KEY]);
      exact &&= !truncated;
      bounded++;
    }
    if (high !== undefined && (bounded === 0 || !this.entry.multikey)) {
      const { key, truncated } = storedKey([high]);
      end = highIncluded ? Buffer.concat([key, AFTER_KEY]) : key;
      exact &&= !truncated;
    } else if (high !== undefined) {
      exact = false;
    }
    return { ids: this.walked(start, end), exact };
  }

  /**
   * `idsBetween`, kept until the next write: a page and its total (a find and a count of one filter, sent
   * together) walk the same range, often of thousands of entries. At most a few walks of a bounded length
   * are kept; none is while a write runs (it would see what the write may yet abort).
   */
  private walked(start: Buffer, end: Buffer): ReadonlySet<number> {
    this.forgetStaleWalks();
    const key = `${start.length}:${start.toString('latin1')}${end.toString('latin1')}`;
    const kept = this.walks.get(key);
    if (kept) return kept;
    const generation = this.generation();
    const ids = RecordIds.of(this.idsBetween(start, end));
    if (this.keeps(generation, ids.size)) {
      if (this.walks.size >= MAX_WALKS_KEPT) this.walks.delete(this.walks.keys().next().value!);
      this.walks.set(key, ids);
    }
    return ids;
  }

  /** Drops the walks kept before the last write. */
  private forgetStaleWalks(): void {
    const generation = this.generation();
    if (generation === this.walksGeneration) return;
    this.walks.clear();
    this.wholeOrder = undefined;
    this.walksGeneration = generation;
  }

  /**
   * Whether a walk of `count` ids made at `generation` may be kept: nothing was written since, none is being
   * written (it would see what the write may yet abort), and it is not too long.
   */
  private keeps(generation: number, count: number): boolean {
    return generation % 2 === 0 && generation === this.generation() && count <= MAX_IDS_KEPT;
  }

  protected idsUnder(key: Buffer): number[] {
    return this.table!.idsUnder(key);
  }

  /** Record ids under the keys from `start` (included) to `end` (excluded). */
  protected idsBetween(start: Buffer, end: Buffer): number[] {
    return this.table!.idsBetween(start, end);
  }

  /**
   * The E11000 error `doc` would raise against the documents already indexed, if any; `self` is the
   * record id of the stored document it replaces (null for a new document). Under a key cut short, the
   * other documents' own keys tell whether they really are duplicates.
   */
  duplicateOf(
    doc: Document,
    self: number | null,
    namespace: string,
    read: (id: number) => Document | undefined,
  ): DuplicateKeyError | null {
    if (!this.isUnique) return null;
    for (const entry of this.keyEntries(doc)) {
      for (const other of this.idsUnder(entry.key)) {
        if (other === self) continue;
        if (entry.truncated && !this.sharesFullKey(entry, read(other))) continue;
        return this.duplicateKeyError(entry.values, namespace);
      }
    }
    return null;
  }

  private sharesFullKey(entry: KeyEntry, other: Document | undefined): boolean {
    if (!other) return false;
    const full = encodeKey(entry.values);
    return this.keyEntries(other).some(({ values }) => encodeKey(values).equals(full));
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

/** Appended to a key, a bound after it and before every greater key: encodings delimit themselves. */
const AFTER_KEY = Buffer.from([0xff]);

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
