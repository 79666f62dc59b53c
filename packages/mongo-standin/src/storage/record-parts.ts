import { asBuffer, documentOf, elementEnd, KEPT_APART, nameEnd } from './bson-elements.ts';

/**
 * A top-level field whose element takes at least this many bytes (a served form, a long text) is stored
 * apart from the rest of its document. Reading a few small fields of a large document (a list item, an
 * id and a location) then decompresses the small rest, not the whole: LZ4 takes ~6 µs for a 14 KB
 * document against ~2 µs for its 3 KB without its one large field (measured on the bench's services).
 */
export const APART_BYTES = 4096;

/**
 * A document as stored: whole (`apart` null), or as its head and its large fields. The head is the
 * document with each large field standing as an element of its name and no value (typed KEPT_APART); the
 * large fields, in their order, make a BSON document of their own, stored under the same record id in
 * the collection's table of fields kept apart. A head is told from a whole document by one byte after
 * its end: a whole document's bytes are exactly as long as it says.
 */
export interface RecordParts {
  head: Buffer;
  apart: Buffer | null;
}

export function splitRecord(bson: Uint8Array): RecordParts {
  const source = asBuffer(bson);
  const kept: Buffer[] = [];
  const apart: Buffer[] = [];
  let position = 4;
  while (source[position] !== 0) {
    const start = position;
    const end = nameEnd(source, start);
    position = elementEnd(source, start, end);
    if (position - start < APART_BYTES) {
      kept.push(source.subarray(start, position));
      continue;
    }
    apart.push(source.subarray(start, position));
    kept.push(Buffer.of(KEPT_APART), source.subarray(start + 1, end + 1));
  }
  if (apart.length === 0) return { head: source, apart: null };
  const head = documentOf(kept, 1);
  return { head, apart: documentOf(apart) };
}

/** Whether stored bytes are a head, whose large fields are kept apart. */
export const isHead = (stored: Buffer): boolean => stored.length !== stored.readInt32LE(0);

/** The whole document of a head and its fields kept apart. */
export function joinRecord(head: Buffer, apart: Buffer): Buffer {
  const elements: Buffer[] = [];
  const large = new ApartElements(() => apart);
  let position = 4;
  while (head[position] !== 0) {
    const start = position;
    position = elementEnd(head, start, nameEnd(head, start));
    if (head[start] !== KEPT_APART) {
      elements.push(head.subarray(start, position));
      continue;
    }
    elements.push(apart.subarray(large.start(), large.end()));
    large.pass();
  }
  return documentOf(elements);
}

/**
 * The fields kept apart from a head, in their order, read once the first of them is wanted: a walk of the
 * head calls `pass()` at each placeholder, and `start()`/`end()` at those it wants.
 */
export class ApartElements {
  bytes: Buffer | null = null;
  /** Placeholders passed in the head, and elements passed here. */
  private passed = 0;
  private reached = 0;
  private position = 4;

  constructor(private readonly read: (() => Uint8Array) | undefined) {}

  /** Where the element of the placeholder the head's walk is at starts. */
  start(): number {
    if (!this.read) throw new Error('a field kept apart was read from its head alone');
    const bytes = (this.bytes ??= asBuffer(this.read()));
    for (; this.reached < this.passed; this.reached++)
      this.position = elementEnd(bytes, this.position, nameEnd(bytes, this.position));
    return this.position;
  }

  /** Where it ends (after start()). */
  end(): number {
    return elementEnd(this.bytes!, this.position, nameEnd(this.bytes!, this.position));
  }

  pass(): void {
    this.passed++;
  }
}
