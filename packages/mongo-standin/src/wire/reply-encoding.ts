import { BSON, type Document } from 'bson';
import { encodeDocument } from '../bson-values.ts';
import { encodingOf } from '../document-encoding.ts';

const EMBEDDED_DOCUMENT = 0x03;
const ARRAY = 0x04;
const BATCH_FIELDS = ['firstBatch', 'nextBatch'] as const;

/** A serialized document as the pieces it is made of: the message frame concatenates them once. */
export type Pieces = Uint8Array[];

const TERMINATOR = Buffer.of(0);

/**
 * A command reply as BSON. A cursor reply's batch is assembled from its documents' bytes (stored
 * documents already have theirs), so that returning documents does not serialize them again, nor copy
 * them more than once; the documents of a batch are not modified once they are handed out.
 */
export function encodeReply(body: Document): Pieces {
  const cursor = body.cursor as Document | undefined;
  const batchField = cursor && BATCH_FIELDS.find((field) => Array.isArray(cursor[field]));
  if (!cursor || !batchField) return [encodeDocument(body)];
  const { [batchField]: batch, ...cursorRest } = cursor;
  const { cursor: _cursor, ...bodyRest } = body;
  const batchPieces = documentOf(
    (batch as Document[]).flatMap((doc, i) => element(EMBEDDED_DOCUMENT, String(i), [encodingOf(doc)])),
  );
  const cursorPieces = documentOf([...element(ARRAY, batchField, batchPieces), elementsOf(cursorRest)]);
  return documentOf([...element(EMBEDDED_DOCUMENT, 'cursor', cursorPieces), elementsOf(bodyRest)]);
}

/** The elements of a serialized document, without its length prefix and terminator. */
const elementsOf = (doc: Document): Uint8Array => {
  const bytes = BSON.serialize(doc);
  return bytes.subarray(4, bytes.length - 1);
};

/** An element as its header (type, name) and its value's pieces. */
function element(type: number, name: string, value: Pieces): Pieces {
  const header = Buffer.allocUnsafe(2 + Buffer.byteLength(name));
  header[0] = type;
  header.write(name, 1, 'utf8');
  header[header.length - 1] = 0;
  return [header, ...value];
}

/** A document of these elements: its length prefix, the elements, its terminator. */
function documentOf(elements: Pieces): Pieces {
  const prefix = Buffer.allocUnsafe(4);
  prefix.writeInt32LE(4 + elements.reduce((sum, piece) => sum + piece.length, 0) + 1, 0);
  return [prefix, ...elements, TERMINATOR];
}
