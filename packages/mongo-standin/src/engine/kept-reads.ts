import type { Document } from 'bson';
import { freezeDocument } from '../bson-values.ts';

/** Bytes of read fields (as stored) one collection keeps at most: ~5× that as decoded documents. */
export const KEPT_READ_BYTES = 8 * 1024 * 1024;

/** A name for a set of field names, whatever their order; the sets given are never changed after use. */
const namesOf = new WeakMap<ReadonlySet<string>, { size: number; name: string }>();

function setName(fields: ReadonlySet<string>): string {
  const known = namesOf.get(fields);
  if (known?.size === fields.size) return known.name;
  const name = [...fields].sort().join('\0');
  namesOf.set(fields, { size: fields.size, name });
  return name;
}

/**
 * Documents of a collection read as far as a few fields, kept between writes for readers that share them
 * (`Fields.shared`: they neither change a document given nor hold it past their command). Proximity
 * searches around nearby places read the same fields of the same candidates, hundreds each, and reading
 * and decoding them again was most of a search's cost; a database keeps what it read in memory as
 * MongoDB's cache does. Dropped at the next write, none kept while a write runs (it would keep what the
 * write may yet abort), and none past `budget` bytes until then. Each is frozen, embedded documents and
 * arrays included, so that a reader breaking the rule fails rather than changes what others are given,
 * and so that what is worked out from a frozen value (a geometry parsed, geo/field-values.ts) holds.
 */
export class KeptReads {
  private readonly bySet = new Map<string, Map<number, Document>>();
  private bytes = 0;
  private keptAt = -1;

  constructor(
    /** The storage's write generation (`Storage.generation`): odd while a write runs. */
    private readonly generation: () => number,
    private readonly budget = KEPT_READ_BYTES,
  ) {}

  /** The document of record `id` read as far as `fields`, if kept since the last write. */
  get(id: number, fields: ReadonlySet<string>): Document | undefined {
    this.forgetStale();
    return this.bySet.get(setName(fields))?.get(id);
  }

  /** Keeps a document read at `generation` (stored as `size` bytes), if nothing was written since. */
  keep(id: number, fields: ReadonlySet<string>, doc: Document, size: number, generation: number): void {
    this.forgetStale();
    if (generation % 2 !== 0 || generation !== this.keptAt || this.bytes + size > this.budget) return;
    const name = setName(fields);
    let docs = this.bySet.get(name);
    if (!docs) this.bySet.set(name, (docs = new Map()));
    docs.set(id, freezeDocument(doc));
    this.bytes += size;
  }

  /** Bytes kept now (as stored). */
  get size(): number {
    this.forgetStale();
    return this.bytes;
  }

  private forgetStale(): void {
    const generation = this.generation();
    if (generation === this.keptAt) return;
    this.bySet.clear();
    this.bytes = 0;
    this.keptAt = generation;
  }
}
