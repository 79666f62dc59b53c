import type { Document } from 'bson';
import { freezeDocument } from '../bson-values.ts';

/** Bytes of read fields (as stored) a database keeps at most: ~5–10× that as objects (see below). */
const KEPT_READ_BYTES = 8 * 1024 * 1024;

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
 * Documents of a database's collections read as far as a few fields, kept between writes for readers that
 * share them (`Fields.shared`: they change nothing they are given). Proximity searches around nearby
 * places read the same fields of the same candidates, hundreds each, and reading and decoding them again
 * was most of a search's cost; a database keeps what it read in memory as MongoDB's cache does. None is
 * kept while a write runs (it would keep what the write may yet abort), none past `budget` bytes, and all
 * are let go once a write ends (`release`) or, for a write to another database, at the next read.
 *
 * Each is frozen, embedded documents and arrays included (not Dates and other BSON values, which no
 * reader changes): a reader in strict code that broke the rule would fail, and mingo's (not strict) would
 * have its write ignored, rather than change what others are given. Values worked out from a frozen one
 * (a geometry parsed, geo/field-values.ts) hold as long as it is kept; they are not counted in the
 * budget, nor are the objects' own overheads: as objects, the bench's `_id`, `id` and `_geo` took ~5×
 * their stored bytes, polygons with their parsed geometries up to ~10×.
 */
export class KeptReads {
  /** By collection table, then by field set, then by record id. */
  private readonly byTable = new Map<string, Map<string, Map<number, Document>>>();
  private bytes = 0;
  private keptAt = -1;

  constructor(
    /** The storage's write generation (`Storage.generation`): odd while a write runs. */
    private readonly generation: () => number,
    private readonly budget = KEPT_READ_BYTES,
  ) {}

  /** The document of record `id` of a table read as far as `fields`, if kept since the last write. */
  get(table: string, id: number, fields: ReadonlySet<string>): Document | undefined {
    this.release();
    return this.byTable.get(table)?.get(setName(fields))?.get(id);
  }

  /** Keeps a document read at `generation` (stored as `size` bytes), if nothing was written since. */
  keep(
    table: string,
    id: number,
    fields: ReadonlySet<string>,
    doc: Document,
    size: number,
    generation: number,
  ): void {
    this.release();
    if (generation % 2 !== 0 || generation !== this.keptAt || this.bytes + size > this.budget) return;
    let sets = this.byTable.get(table);
    if (!sets) this.byTable.set(table, (sets = new Map()));
    const name = setName(fields);
    let docs = sets.get(name);
    if (!docs) sets.set(name, (docs = new Map()));
    docs.set(id, freezeDocument(doc));
    this.bytes += size;
  }

  /** Bytes kept now (as stored). */
  get keptBytes(): number {
    this.release();
    return this.bytes;
  }

  /** Lets go of what was read before the last write. */
  release(): void {
    const generation = this.generation();
    if (generation === this.keptAt) return;
    this.byTable.clear();
    this.bytes = 0;
    this.keptAt = generation;
  }
}
