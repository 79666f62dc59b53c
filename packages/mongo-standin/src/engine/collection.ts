import type { Document } from 'bson';
import { isPlainObject } from '../bson-values.ts';
import { encodingOf } from '../document-encoding.ts';
import { badValue, indexNotFound, locationError, type DuplicateKeyError } from '../errors.ts';
import { validateGeoKeys } from '../geo/index.ts';
import type { DocumentPredicate } from '../query/filter.ts';
import type { JournalRecord } from '../storage/journal-record.ts';
import { CollectionIndex } from './collection-index.ts';
import { indexKey, isIndexableScalar } from './index-key.ts';
import { ID_INDEX_SPEC, type IndexSpec } from './index-spec.ts';
import { MAX_BSON_OBJECT_SIZE } from '../limits.ts';

export interface CollectionHost {
  readonly databaseName: string;
  compileFilter(filter: Document): DocumentPredicate;
  record(record: JournalRecord): void;
}

export interface CandidatePlan {
  /** The index that narrowed the scan, or null for a full collection scan. */
  indexName: string | null;
  docs: Iterable<Document>;
}

/**
 * A collection's documents (by `_id` key, in insertion order) and indexes. Stored documents are never
 * mutated: an update stores a new object, so cursors and readers holding the old one stay consistent.
 * Every change is reported to the host's journal.
 */
export class Collection {
  private readonly docs = new Map<string, Document>();
  private readonly indexes = new Map<string, CollectionIndex>();

  constructor(
    readonly name: string,
    readonly options: Document,
    private readonly host: CollectionHost,
  ) {
    this.indexes.set(ID_INDEX_SPEC.name, new CollectionIndex(ID_INDEX_SPEC, host.compileFilter));
  }

  get namespace(): string {
    return `${this.host.databaseName}.${this.name}`;
  }

  get size(): number {
    return this.docs.size;
  }

  get indexSpecs(): IndexSpec[] {
    return [...this.indexes.values()].map((index) => index.spec);
  }

  all(): Iterable<Document> {
    return this.docs.values();
  }

  getById(id: unknown): Document | undefined {
    return this.docs.get(indexKey(id));
  }

  /** Stores a new document (which must have its `_id`); throws E11000, a geo key error, or if too large. */
  insert(doc: Document): void {
    const id = indexKey(doc._id);
    const size = encodingOf(doc).length;
    if (size > MAX_BSON_OBJECT_SIZE) {
      throw badValue(`object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_SIZE}`);
    }
    this.checkDocument(doc, null);
    this.addToIndexes(doc, id);
    this.docs.set(id, doc);
    this.host.record({ op: 'put', collection: this.name, doc });
  }

  /** Replaces a stored document by its new version (same `_id`), unless that is too large. */
  replace(previous: Document, next: Document): void {
    const id = indexKey(previous._id);
    if (encodingOf(next).length > MAX_BSON_OBJECT_SIZE) {
      throw locationError(17419, `Resulting document after update is larger than ${MAX_BSON_OBJECT_SIZE}`);
    }
    // Unique checks already leave the document's own entries out, so nothing moves until they pass.
    this.checkDocument(next, id);
    for (const index of this.indexes.values()) index.update(previous, next, id);
    this.docs.set(id, next);
    this.host.record({ op: 'put', collection: this.name, doc: next });
  }

  remove(doc: Document): void {
    const id = indexKey(doc._id);
    this.removeFromIndexes(doc, id);
    this.docs.delete(id);
    this.host.record({ op: 'delete', collection: this.name, id: doc._id });
  }

  private checkDocument(doc: Document, self: string | null): void {
    for (const index of this.indexes.values()) {
      const duplicate = index.duplicateOf(doc, self, this.namespace);
      if (duplicate) throw duplicate;
      for (const [path, kind] of Object.entries(index.spec.key))
        if (kind === '2dsphere') validateGeoKeys(doc, path);
    }
  }

  private addToIndexes(doc: Document, id: string): void {
    for (const index of this.indexes.values()) index.add(doc, id);
  }

  private removeFromIndexes(doc: Document, id: string): void {
    for (const index of this.indexes.values()) index.remove(doc, id);
  }

  hasIndex(name: string): boolean {
    return this.indexes.has(name);
  }

  findIndex(predicate: (spec: IndexSpec) => boolean): IndexSpec | undefined {
    return this.indexSpecs.find(predicate);
  }

  /** Builds an index over the existing documents; fails without change if they violate it. */
  createIndex(spec: IndexSpec): void {
    const index = new CollectionIndex(spec, this.host.compileFilter);
    for (const [id, doc] of this.docs) {
      for (const [path, kind] of Object.entries(spec.key))
        if (kind === '2dsphere') validateGeoKeys(doc, path);
      const duplicate: DuplicateKeyError | null = index.duplicateOf(doc, id, this.namespace);
      if (duplicate) throw duplicate;
      index.add(doc, id);
    }
    this.indexes.set(spec.name, index);
    this.host.record({ op: 'createIndex', collection: this.name, spec });
  }

  dropIndex(name: string): void {
    if (!this.indexes.delete(name)) throw indexNotFound(`index not found with name [${name}]`);
    this.host.record({ op: 'dropIndex', collection: this.name, name });
  }

  /**
   * The documents a filter can match: when a top-level equality or `$in` names a field with a
   * complete single-field index, only that index's entries, otherwise the whole collection.
   */
  candidates(filter: Document): CandidatePlan {
    const best = this.narrowest(filter);
    if (!best) return { indexName: null, docs: this.docs.values() };
    const docs: Document[] = [];
    for (const id of best.ids) {
      const doc = this.docs.get(id);
      if (doc) docs.push(doc);
    }
    return { indexName: best.indexName, docs };
  }

  /**
   * The smallest set of ids an index gives for one of the filter's conditions: top-level fields, and the
   * clauses of a top-level `$and` (every clause must hold, so any one of them bounds the result).
   */
  private narrowest(filter: Document): { indexName: string; ids: Set<string> } | null {
    let best: { indexName: string; ids: Set<string> } | null = null;
    const consider = (found: { indexName: string; ids: Set<string> } | null) => {
      if (found && (!best || found.ids.size < best.ids.size)) best = found;
    };
    for (const [field, condition] of Object.entries(filter)) {
      if (field === '$and' && Array.isArray(condition)) {
        for (const clause of condition) if (isPlainObject(clause)) consider(this.narrowest(clause));
        continue;
      }
      if (field.startsWith('$')) continue;
      const index = [...this.indexes.values()].find(
        (candidate) => candidate.isComplete && candidate.fields.length === 1 && candidate.fields[0] === field,
      );
      if (!index) continue;
      const anyOf = equalityValues(condition);
      if (anyOf) {
        const ids = new Set<string>();
        for (const value of anyOf) for (const id of index.lookup(value)) ids.add(id);
        consider({ indexName: index.spec.name, ids });
      }
      const allOf = allValues(condition);
      if (allOf) {
        // A document holding every value is under each value's key: intersect them.
        const [first, ...rest] = allOf.map((value) => new Set<string>(index.lookup(value)));
        const ids = new Set([...first!].filter((id) => rest.every((under) => under.has(id))));
        consider({ indexName: index.spec.name, ids });
      }
    }
    return best;
  }

  /**
   * All documents in the order of a single-key sort, from the `skip`-th on, by walking an index on that
   * key; null when no index gives that order.
   */
  inIndexOrder(sort: Record<string, 1 | -1>, skip = 0): Iterable<Document> | null {
    const index = this.sortIndex(sort);
    if (!index) return null;
    return this.docsByIds(index.idsInOrder(Object.values(sort)[0]!, skip));
  }

  /** The name of the index `inIndexOrder` walks for this sort, or null when none gives its order. */
  sortIndexName(sort: Record<string, 1 | -1>): string | null {
    return this.sortIndex(sort)?.spec.name ?? null;
  }

  private sortIndex(sort: Record<string, 1 | -1>) {
    const keys = Object.keys(sort);
    if (keys.length !== 1) return undefined;
    return [...this.indexes.values()].find((candidate) => candidate.servesSort(keys[0]!));
  }

  private *docsByIds(ids: Iterable<string>): Generator<Document> {
    for (const id of ids) {
      const doc = this.docs.get(id);
      if (doc) yield doc;
    }
  }

  /**
   * Replay of journaled changes: applied without constraint checks, since replaying a journal over a
   * snapshot that already contains part of it can pass through states that never existed.
   */
  restore(record: JournalRecord): void {
    if (record.op === 'put') {
      const id = indexKey(record.doc._id);
      const previous = this.docs.get(id);
      if (previous) for (const index of this.indexes.values()) index.update(previous, record.doc, id);
      else this.addToIndexes(record.doc, id);
      this.docs.set(id, record.doc);
    } else if (record.op === 'delete') {
      const id = indexKey(record.id);
      const previous = this.docs.get(id);
      if (previous) this.removeFromIndexes(previous, id);
      this.docs.delete(id);
    } else if (record.op === 'createIndex') {
      const index = new CollectionIndex(record.spec, this.host.compileFilter);
      for (const [id, doc] of this.docs) index.add(doc, id);
      this.indexes.set(record.spec.name, index);
    } else if (record.op === 'dropIndex') {
      this.indexes.delete(record.name);
    }
  }

  /** The state of the collection as records that recreate it (for snapshots). */
  *records(): Generator<JournalRecord> {
    yield { op: 'createCollection', collection: this.name, options: this.options };
    for (const index of this.indexes.values())
      if (index.spec.name !== ID_INDEX_SPEC.name)
        yield { op: 'createIndex', collection: this.name, spec: index.spec };
    for (const doc of this.docs.values()) yield { op: 'put', collection: this.name, doc };
  }
}

/** The values of an `$all` condition of plain values (every one must be present), or null. */
function allValues(condition: unknown): unknown[] | null {
  if (!isPlainObject(condition) || Object.keys(condition).length !== 1) return null;
  const operand = condition.$all;
  if (!Array.isArray(operand) || operand.length === 0 || !operand.every((v) => isIndexableScalar(v)))
    return null;
  return operand;
}

/** The values of an equality condition an index can answer, or null when it cannot. */
function equalityValues(condition: unknown): unknown[] | null {
  if (condition instanceof RegExp) return null;
  if (isIndexableScalar(condition)) return [condition];
  if (!isPlainObject(condition)) return null;
  const operators = Object.keys(condition);
  if (operators.length !== 1) return null;
  const operand = condition[operators[0]!];
  if (operators[0] === '$eq' && isIndexableScalar(operand)) return [operand];
  if (operators[0] === '$in' && Array.isArray(operand) && operand.every((v) => isIndexableScalar(v)))
    return operand;
  return null;
}
