import type { Document } from 'bson';
import { compareValues, numericValue, typeRank, TypeRank } from '../compare.ts';
import { decodeDocument, isPlainObject } from '../bson-values.ts';
import { bytesOnly, encodingOf, rememberEncoding } from '../document-encoding.ts';
import { badValue, indexNotFound, internalError, locationError, type DuplicateKeyError } from '../errors.ts';
import { validateGeoKeys } from '../geo/index.ts';
import type { DocumentPredicate } from '../query/filter.ts';
import {
  apartTableOf,
  tableBytes,
  type CollectionEntry,
  type DocumentTable,
  type IndexEntry,
  type Storage,
} from '../storage/storage.ts';
import { fieldSubsets, type Fields } from '../storage/field-subset.ts';
import { isHead, joinRecord, splitRecord } from '../storage/record-parts.ts';
import { CollectionIndex, type RangeBounds } from './collection-index.ts';
import { GeoIndex, isGeoIndexSpec } from './geo-index.ts';
import type { KeptReads } from './kept-reads.ts';
import { conditionRegion } from '../geo/query-regions.ts';
import { WORLD, type Region } from '../geo/cells.ts';
import { isIndexableScalar } from './index-key.ts';
import { ID_INDEX_SPEC, type IndexSpec } from './index-spec.ts';
import { MAX_BSON_OBJECT_SIZE } from '../limits.ts';

export interface CollectionHost {
  readonly databaseName: string;
  readonly storage: Storage;
  compileFilter(filter: Document): DocumentPredicate;
  /** Documents read for readers that share them, kept between writes. */
  readonly keptReads: KeptReads;
  /** The collection's catalog entry changed (an index, its size): write it with the command's writes. */
  changed(collection: Collection): void;
}

/** A region a geometry field must reach into (a near query's reach), to narrow by that field's 2dsphere index. */
export interface GeoReach {
  readonly path: string;
  readonly region: Region;
}

/** What an index gives for a filter: the record ids of its candidates, and whether just they match. */
interface Narrowing {
  indexName: string;
  ids: ReadonlySet<number>;
  /** Every candidate matches the whole filter: it need not be read to be counted or skipped. */
  exact: boolean;
}

export interface CandidatePlan {
  /** The index that narrowed the scan, or null for a full collection scan. */
  indexName: string | null;
  /** The candidates' record ids, or null for the whole collection. */
  ids: ReadonlySet<number> | null;
  exact: boolean;
  docs: Iterable<Document>;
}

/** Which record each document read from a collection is (updates and deletes find theirs by it). */
const recordIds = new WeakMap<Document, number>();

/**
 * A collection: its documents (BSON in an LMDB table, by record id in insertion order) and its indexes.
 * Every read decodes a fresh document, so callers may modify what they get, but for reads of a few fields
 * marked shared, which may give documents kept from earlier reads (KeptReads). The writing methods run
 * within a write transaction (Database.write).
 */
export class Collection {
  private readonly docs: DocumentTable;
  private readonly apartTableName: string;
  private readonly indexes = new Map<string, CollectionIndex>();
  private nextRecordId: number;

  constructor(
    readonly entry: CollectionEntry,
    private readonly host: CollectionHost,
  ) {
    this.docs = host.storage.documents(entry.table);
    this.apartTableName = apartTableOf(entry.table);
    for (const index of entry.indexes) this.indexes.set(index.spec.name, this.openIndex(index));
    const [last] = this.docs.getKeys({ reverse: true, limit: 1 });
    this.nextRecordId = (last ?? 0) + 1;
  }

  private openIndex(entry: IndexEntry): CollectionIndex {
    const table = entry.table === null ? null : this.host.storage.index(entry.table);
    const Kind = isGeoIndexSpec(entry.spec) ? GeoIndex : CollectionIndex;
    return new Kind(entry, table, this.host.compileFilter, () => this.host.storage.generation);
  }

  get name(): string {
    return this.entry.name;
  }

  get options(): Document {
    return this.entry.options;
  }

  get namespace(): string {
    return `${this.host.databaseName}.${this.name}`;
  }

  get size(): number {
    return this.host.storage.tableStats(this.entry.table).entryCount;
  }

  get indexSpecs(): IndexSpec[] {
    return [...this.indexes.values()].map((index) => index.spec);
  }

  /**
   * Every document, in insertion order, read as the walk goes; with `fields`, only those top-level fields
   * of each (for reading: such a document is never written back).
   */
  *all(fields: Fields = null): Generator<Document> {
    for (const { key, value } of this.docs.getRange({ snapshot: false }))
      yield this.decoded(key, value, fields);
  }

  /** A document by its record id (as an index gives it), or undefined if there is none. */
  readRecord(id: number, fields: Fields = null): Document | undefined {
    if (fields?.shared && !fields.reply) return this.readShared(id, fields.read);
    // A part of the document is copied out of LMDB's buffer, which the next read reuses; a whole one is kept.
    const bytes = fields ? this.docs.getBinaryFast(id) : this.docs.getBinary(id);
    return bytes === undefined ? undefined : this.decoded(id, bytes, fields);
  }

  /**
   * A stored document: whole, remembering its bytes and record (see decodeWhole), its fields kept apart
   * joined back in; or, with `fields`, a document of those fields only (see decodeSubset).
   */
  private decoded(id: number, stored: Buffer, fields: Fields): Document {
    if (fields)
      return decodeSubset(
        this.subsets(id, stored, fields.reply ? [fields.read, fields.reply] : [fields.read]),
      );
    if (!isHead(stored)) return decodeWhole(id, stored);
    return decodeWhole(id, joinRecord(stored, this.apartOf(this.apartTable().getBinary(id), id)));
  }

  /**
   * The bytes of a stored document's fields in each of `sets` (see fieldSubsets), those kept apart from its
   * head read only when one is wanted. LMDB decompresses each table's values into a buffer of its own, so
   * reading the fields apart leaves the head's bytes as they were.
   */
  private subsets(id: number, stored: Buffer, sets: readonly ReadonlySet<string>[]): Buffer[] {
    const apart = isHead(stored) ? () => this.apartOf(this.apartTable().getBinaryFast(id), id) : undefined;
    return fieldSubsets(stored, sets, apart);
  }

  /** A document read as far as `fields` for a reader that shares it: one kept since the last write if any. */
  private readShared(id: number, fields: ReadonlySet<string>): Document | undefined {
    const kept = this.host.keptReads.get(this.entry.table, id, fields);
    if (kept) return kept;
    const generation = this.host.storage.generation;
    const stored = this.docs.getBinaryFast(id);
    if (stored === undefined) return undefined;
    const [read] = this.subsets(id, stored, [fields]);
    const doc = decodeDocument(read!);
    this.host.keptReads.keep(this.entry.table, id, fields, doc, read!.length, generation);
    return doc;
  }

  private apartOf(bytes: Buffer | undefined, id: number): Buffer {
    if (bytes === undefined)
      throw internalError(`the fields kept apart from record ${id} of ${this.namespace} are missing`);
    return bytes;
  }

  /** Within a write: stores a document's bytes under its record id, its large fields kept apart. */
  private store(id: number, bytes: Uint8Array): void {
    const { head, apart } = splitRecord(bytes);
    this.docs.putSync(id, head);
    if (apart) {
      if (!this.entry.apart) {
        this.entry.apart = true;
        this.host.changed(this);
      }
      this.apartTable().putSync(id, apart);
    } else if (this.entry.apart) {
      this.apartTable().removeSync(id);
    }
  }

  /** Opened by name at each use: a handle kept here would outlive a failed write that opened its table. */
  private apartTable(): DocumentTable {
    return this.host.storage.documents(this.apartTableName);
  }

  private *readAll(ids: Iterable<number>, fields: Fields): Generator<Document> {
    for (const id of ids) {
      const doc = this.readRecord(id, fields);
      if (doc) yield doc;
    }
  }

  getById(id: unknown): Document | undefined {
    const [recordId] = this.idIndex.lookup(id);
    return recordId === undefined ? undefined : this.readRecord(recordId);
  }

  private get idIndex(): CollectionIndex {
    return this.indexes.get(ID_INDEX_SPEC.name)!;
  }

  /** Stores a new document (which must have its `_id`); throws E11000, a geo key error, or if too large. */
  insert(doc: Document): void {
    const bytes = encodingOf(doc);
    if (bytes.length > MAX_BSON_OBJECT_SIZE) {
      throw badValue(
        `object to insert too large. size in bytes: ${bytes.length}, max size: ${MAX_BSON_OBJECT_SIZE}`,
      );
    }
    this.checkDocument(doc, null);
    const id = this.nextRecordId++;
    this.store(id, bytes);
    for (const index of this.indexes.values()) index.add(doc, id);
    recordIds.set(doc, id);
    this.entry.dataSize += bytes.length;
    this.host.changed(this);
  }

  /** Replaces a stored document (as read from this collection) by its new version, unless that is too large. */
  replace(previous: Document, next: Document): void {
    const id = this.recordIdOf(previous);
    const bytes = encodingOf(next);
    if (bytes.length > MAX_BSON_OBJECT_SIZE) {
      throw locationError(17419, `Resulting document after update is larger than ${MAX_BSON_OBJECT_SIZE}`);
    }
    // Unique checks already leave the document's own entries out, so nothing moves until they pass.
    this.checkDocument(next, id);
    for (const index of this.indexes.values()) index.update(previous, next, id);
    this.store(id, bytes);
    recordIds.set(next, id);
    this.entry.dataSize += bytes.length - encodingOf(previous).length;
    this.host.changed(this);
  }

  remove(doc: Document): void {
    const id = this.recordIdOf(doc);
    for (const index of this.indexes.values()) index.remove(doc, id);
    this.docs.removeSync(id);
    if (this.entry.apart) this.apartTable().removeSync(id);
    this.entry.dataSize -= encodingOf(doc).length;
    this.host.changed(this);
  }

  private recordIdOf(doc: Document): number {
    const id = recordIds.get(doc) ?? this.idIndex.lookup(doc._id)[0];
    if (id === undefined)
      throw new Error(`no stored document with _id ${String(doc._id)} in ${this.namespace}`);
    return id;
  }

  private checkDocument(doc: Document, self: number | null): void {
    for (const index of this.indexes.values()) {
      const duplicate = index.duplicateOf(doc, self, this.namespace, (id) => this.readRecord(id));
      if (duplicate) throw duplicate;
      for (const [path, kind] of Object.entries(index.spec.key))
        if (kind === '2dsphere') validateGeoKeys(doc, path);
    }
  }

  hasIndex(name: string): boolean {
    return this.indexes.has(name);
  }

  findIndex(predicate: (spec: IndexSpec) => boolean): IndexSpec | undefined {
    return this.indexSpecs.find(predicate);
  }

  /** Builds an index over the existing documents; fails (and the transaction with it) if they violate it. */
  createIndex(spec: IndexSpec): void {
    const keeps =
      Object.values(spec.key).every((direction) => typeof direction === 'number') || isGeoIndexSpec(spec);
    const entry: IndexEntry = {
      spec,
      table: keeps ? this.host.storage.newTableName('i') : null,
      multikey: false,
    };
    const index = this.openIndex(entry);
    for (const doc of this.all()) {
      for (const [path, kind] of Object.entries(spec.key))
        if (kind === '2dsphere') validateGeoKeys(doc, path);
      const id = recordIds.get(doc)!;
      const duplicate: DuplicateKeyError | null = index.duplicateOf(doc, id, this.namespace, (other) =>
        this.readRecord(other),
      );
      if (duplicate) throw duplicate;
      if (keeps) index.add(doc, id);
    }
    this.indexes.set(spec.name, index);
    this.entry.indexes.push(entry);
    this.host.changed(this);
  }

  dropIndex(name: string): void {
    const index = this.indexes.get(name);
    if (!index) throw indexNotFound(`index not found with name [${name}]`);
    if (index.entry.table) this.host.storage.dropIndex(index.entry.table);
    this.indexes.delete(name);
    this.entry.indexes = this.entry.indexes.filter((entry) => entry.spec.name !== name);
    this.host.changed(this);
  }

  /** Bytes of each index's table (collStats `indexSizes`). */
  indexSizes(): Record<string, number> {
    const sizes: Record<string, number> = {};
    for (const { spec, table } of this.entry.indexes)
      sizes[spec.name] = table === null ? 0 : this.host.storage.indexBytes(table);
    return sizes;
  }

  /** Bytes of the documents' tables. */
  get storageSize(): number {
    const { table, apart } = this.entry;
    return [table, ...(apart ? [this.apartTableName] : [])].reduce(
      (sum, name) => sum + tableBytes(this.host.storage.tableStats(name)),
      0,
    );
  }

  /** Bytes of its tables: documents and indexes (listDatabases `sizeOnDisk`). */
  get totalSize(): number {
    return this.storageSize + Object.values(this.indexSizes()).reduce((sum, bytes) => sum + bytes, 0);
  }

  /**
   * The documents a filter can match: when a top-level equality, `$in` or range names a field with a
   * single-field index, or a geo condition one with a 2dsphere index, only that index's entries,
   * otherwise the whole collection. `reach` narrows further, by a region its field's geometries must
   * reach into.
   */
  candidates(filter: Document, fields: Fields = null, reach?: GeoReach): CandidatePlan {
    let best = this.narrowest(filter, Object.keys(filter).length === 1);
    const near = reach && this.geoIds(reach.path, reach.region);
    if (near && (!best || near.ids.size < best.ids.size)) best = near;
    if (!best) return { indexName: null, ids: null, exact: false, docs: this.all(fields) };
    return { ...best, exact: best.exact && !near, docs: this.readAll(best.ids, fields) };
  }

  /** The candidates a field's 2dsphere index gives for a region; null without one, or for the whole earth. */
  private geoIds(field: string, region: Region | null): Narrowing | null {
    if (region === null || region === WORLD) return null;
    const index = [...this.indexes.values()].find(
      (candidate) => candidate instanceof GeoIndex && candidate.fields[0] === field,
    ) as GeoIndex | undefined;
    return index ? { indexName: index.spec.name, ids: index.idsWithin(region), exact: false } : null;
  }

  /**
   * The smallest set of ids an index gives for one of the filter's conditions: top-level fields, and the
   * clauses of a top-level `$and` (every clause must hold, so any one of them bounds the result). It is
   * exact when `alone` (the condition is the whole filter) and the index holds just its matches.
   */
  private narrowest(filter: Document, alone: boolean): Narrowing | null {
    let best: Narrowing | null = null;
    const consider = (found: Narrowing | null) => {
      if (found && (!best || found.ids.size < best.ids.size)) best = found;
    };
    for (const [field, condition] of Object.entries(filter)) {
      if (field === '$and' && Array.isArray(condition)) {
        for (const clause of condition) if (isPlainObject(clause)) consider(this.narrowest(clause, false));
        continue;
      }
      if (field.startsWith('$')) continue;
      consider(this.geoIds(field, conditionRegion(condition)));
      const indexFor = (values: unknown[]) =>
        [...this.indexes.values()].find(
          (candidate) =>
            candidate.fields.length === 1 && candidate.fields[0] === field && candidate.holdsAll(values),
        );
      const anyOf = equalityValues(condition);
      const index = anyOf && indexFor(anyOf);
      if (anyOf && index) {
        const ids = new Set<number>();
        let exact = alone;
        for (const value of anyOf) {
          const found = index.lookupExactly(value);
          exact &&= found.exact;
          for (const id of found.ids) ids.add(id);
        }
        consider({ indexName: index.spec.name, ids, exact });
      }
      const allOf = allValues(condition);
      const allIndex = allOf && indexFor(allOf);
      if (allOf && allIndex) {
        // A document holding every value is under each value's key: intersect them.
        const [first, ...rest] = allOf.map((value) => new Set<number>(allIndex.lookup(value)));
        const ids = new Set([...first!].filter((id) => rest.every((under) => under.has(id))));
        consider({ indexName: allIndex.spec.name, ids, exact: false });
      }
      const range = rangeBounds(condition);
      const rangeIndex = range && indexFor([range.low ?? range.high]);
      if (range && rangeIndex) {
        const found = rangeIndex.idsInRange(range);
        consider({ indexName: rangeIndex.spec.name, ids: found.ids, exact: alone && found.exact });
      }
    }
    return best;
  }

  /**
   * The record ids of a set in the order of a single-key sort, by walking the index `sortIndexName`
   * names for it (which must be one), and stopping once all are found.
   */
  *idsInSortOrder(sort: Record<string, 1 | -1>, ids: ReadonlySet<number>): Generator<number> {
    const index = this.sortIndex(sort)!;
    let found = 0;
    for (const id of index.keptIdsInOrder(Object.values(sort)[0]!)) {
      if (!ids.has(id)) continue;
      yield id;
      if (++found === ids.size) return;
    }
  }

  /**
   * All documents in the order of a single-key sort, from the `skip`-th on, by walking an index on that
   * key; null when no index gives that order.
   */
  inIndexOrder(sort: Record<string, 1 | -1>, skip = 0, fields: Fields = null): Iterable<Document> | null {
    const index = this.sortIndex(sort);
    if (!index) return null;
    return this.readAll(index.idsInOrder(Object.values(sort)[0]!, skip), fields);
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
}

/**
 * The reply of a document read with `Fields.reply` (its bytes, which are all a reply reads of it), held by
 * the document under a property that neither a copy nor a walk of its fields sees: one per document of a
 * stream, where a WeakMap's entries cost more to add and to collect.
 */
const REPLY = Symbol('reply');

/** The reply cut for a document read with reply fields, if it was. */
export const replyOf = (doc: Document): Document | undefined => (doc as { [REPLY]?: Document })[REPLY];

/** A stored document, remembering its bytes (replies and no-op checks reuse them) and its record. */
function decodeWhole(id: number, bytes: Buffer): Document {
  const doc = decodeDocument(bytes);
  rememberEncoding(doc, bytes);
  recordIds.set(doc, id);
  return doc;
}

/**
 * A document of some fields only (`read`), remembering neither bytes nor record (it is not the stored
 * document); `reply`, when cut too, the bytes its reply shows.
 */
function decodeSubset([read, reply]: Buffer[]): Document {
  const doc = decodeDocument(read!);
  if (reply) Object.defineProperty(doc, REPLY, { value: bytesOnly(reply) });
  return doc;
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

const RANGE_OPERATORS = new Set(['$gt', '$gte', '$lt', '$lte']);

/**
 * The bounds of a range condition (`$gt`, `$gte`, `$lt`, `$lte` of strings, numbers, dates or ObjectIds,
 * all of one type, as MongoDB brackets each by its operand's type), or null for any other condition.
 */
function rangeBounds(condition: unknown): RangeBounds | null {
  if (!isPlainObject(condition)) return null;
  const operators = Object.keys(condition);
  if (operators.length === 0 || !operators.every((operator) => RANGE_OPERATORS.has(operator))) return null;
  const operands = operators.map((operator) => condition[operator]);
  if (!operands.every(isRangeOperand)) return null;
  const ranks = new Set(operands.map((operand) => typeRank(operand)));
  if (ranks.size > 1) return null;
  const bounds: RangeBounds = { lowIncluded: true, highIncluded: true };
  for (const operator of operators) {
    const operand = condition[operator];
    if (operator === '$gt' || operator === '$gte') {
      if (bounds.low === undefined || compareValues(operand, bounds.low) > 0) {
        bounds.low = operand;
        bounds.lowIncluded = operator === '$gte';
      } else if (compareValues(operand, bounds.low) === 0 && operator === '$gt') bounds.lowIncluded = false;
    } else if (bounds.high === undefined || compareValues(operand, bounds.high) < 0) {
      bounds.high = operand;
      bounds.highIncluded = operator === '$lte';
    } else if (compareValues(operand, bounds.high) === 0 && operator === '$lt') bounds.highIncluded = false;
  }
  return bounds;
}

function isRangeOperand(value: unknown): boolean {
  const rank = typeRank(value);
  if (rank === TypeRank.String || rank === TypeRank.Date || rank === TypeRank.ObjectId) return true;
  return rank === TypeRank.Number && !Number.isNaN(Number(numericValue(value)));
}
