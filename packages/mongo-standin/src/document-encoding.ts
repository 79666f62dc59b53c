import type { Document } from 'bson';
import { encodeDocument } from './bson-values.ts';

/**
 * The BSON bytes of documents that are never modified again (stored versions, documents as received),
 * so that each is serialized at most once: the journal, snapshots and the no-op check of updates all
 * need them. Documents received over the wire come with theirs. Kept per document object, so a
 * document dropped from the collection drops its bytes too.
 */
const encodings = new WeakMap<Document, Uint8Array>();

/** Records the bytes `doc` was decoded from; `doc` must not be modified afterwards. */
export function rememberEncoding(doc: Document, bytes: Uint8Array): void {
  encodings.set(doc, bytes);
}

/**
 * A document that stands for its bytes in a reply, which reads nothing of it but its encoding: no fields
 * of its own (they are never read), its bytes held by the object itself rather than in `encodings` (a
 * stream of list items makes one per item, and entries of a WeakMap cost more to add and to collect).
 */
class EncodedDocument {
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  static bytesOf(doc: Document): Uint8Array | undefined {
    return #bytes in doc ? (doc as EncodedDocument).#bytes : undefined;
  }
}

/** A document that stands for `bytes` in a reply (see EncodedDocument). */
export const bytesOnly = (bytes: Uint8Array): Document => new EncodedDocument(bytes) as Document;

/** The BSON encoding of an unmodifiable document, serialized on first request. */
export function encodingOf(doc: Document): Uint8Array {
  let bytes = EncodedDocument.bytesOf(doc) ?? encodings.get(doc);
  if (!bytes) encodings.set(doc, (bytes = encodeDocument(doc)));
  return bytes;
}

/**
 * Gives `doc`, which is `source` with its `_id` moved to the front (MongoDB stores `_id` first while
 * drivers append the `_id` they generate), the bytes of `source` rearranged alike, when `source` was
 * received with `_id` as its last field.
 */
export function rememberIdFirstEncoding(doc: Document, source: Document): void {
  const bytes = encodings.get(source);
  if (!bytes || doc === source || Object.keys(source).at(-1) !== '_id') return;
  const idDocument = encodeDocument({ _id: doc._id });
  const idElement = idDocument.subarray(4, idDocument.length - 1);
  const idStart = bytes.length - 1 - idElement.length;
  if (idStart < 4 || !Buffer.from(idElement).equals(bytes.subarray(idStart, bytes.length - 1))) return;
  const reordered = Buffer.allocUnsafe(bytes.length);
  reordered.writeInt32LE(bytes.length, 0);
  reordered.set(idElement, 4);
  reordered.set(bytes.subarray(4, idStart), 4 + idElement.length);
  reordered[bytes.length - 1] = 0;
  encodings.set(doc, reordered);
}
