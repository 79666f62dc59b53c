import { BSON, type Document } from 'bson';
import { encodeDocument } from '../bson-values.ts';
import { encodingOf } from '../document-encoding.ts';

const EMBEDDED_DOCUMENT = 0x03;
const ARRAY = 0x04;
const BATCH_FIELDS = ['firstBatch', 'nextBatch'] as const;

/**
 * A command reply as BSON. A cursor reply's batch is assembled from its documents' bytes (stored
 * documents already have theirs), so that returning documents does not serialize them again; the
 * documents of a batch are not modified once they are handed out.
 */
export function encodeReply(body: Document): Uint8Array {
  const cursor = body.cursor as Document | undefined;
  const batchField = cursor && BATCH_FIELDS.find((field) => Array.isArray(cursor[field]));
  if (!cursor || !batchField) return encodeDocument(body);
  const { [batchField]: batch, ...cursorRest } = cursor;
  const { cursor: _cursor, ...bodyRest } = body;
  const batchBytes = documentOf(
    (batch as Document[]).flatMap((doc, i) => element(EMBEDDED_DOCUMENT, String(i), encodingOf(doc))),
  );
  const cursorBytes = documentOf([...element(ARRAY, batchField, batchBytes), elementsOf(cursorRest)]);
  return documentOf([...element(EMBEDDED_DOCUMENT, 'cursor', cursorBytes), elementsOf(bodyRest)]);
}

/** The elements of a serialized document, without its length prefix and terminator. */
const elementsOf = (doc: Document): Uint8Array => {
  const bytes = BSON.serialize(doc);
  return bytes.subarray(4, bytes.length - 1);
};

/** An element as its header (type, name) and its value's bytes. */
function element(type: number, name: string, value: Uint8Array): Uint8Array[] {
  const header = Buffer.allocUnsafe(2 + Buffer.byteLength(name));
  header[0] = type;
  header.write(name, 1, 'utf8');
  header[header.length - 1] = 0;
  return [header, value];
}

function documentOf(parts: Uint8Array[]): Buffer {
  const length = 4 + parts.reduce((sum, part) => sum + part.length, 0) + 1;
  const prefix = Buffer.allocUnsafe(4);
  prefix.writeInt32LE(length, 0);
  return Buffer.concat([prefix, ...parts, Buffer.of(0)], length);
}
