import { Long, ObjectId, type Document } from 'bson';
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
  private readonly entries = new Map<string, Set<string>>();
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
    for (const { key } of this.keyEntries(doc)) {
      let ids = this.entries.get(key);
      if (!ids) this.entries.set(key, (ids = new Set()));
      ids.add(id);
    }
  }

  remove(doc: Document, id: string): void {
    for (const { key } of this.keyEntries(doc)) {
      const ids = this.entries.get(key);
      if (!ids) continue;
      ids.delete(id);
      if (ids.size === 0) this.entries.delete(key);
    }
  }

  /** Ids of documents whose single-field key equals `value`. */
  lookup(value: unknown): ReadonlySet<string> {
    return this.entries.get(indexKey(value)) ?? EMPTY;
  }

  /**
   * The E11000 error `doc` would raise against the documents already indexed, if any; `self` is the
   * id of the stored document it replaces (null for a new document).
   */
  duplicateOf(doc: Document, self: string | null, namespace: string): DuplicateKeyError | null {
    if (!this.isUnique) return null;
    for (const entry of this.keyEntries(doc)) {
      const ids = this.entries.get(entry.key);
      if (ids && [...ids].some((other) => other !== self))
        return this.duplicateKeyError(entry.values, namespace);
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

const EMPTY: ReadonlySet<string> = new Set();

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
