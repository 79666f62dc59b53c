import { BSON } from 'bson';
import { encodingOf } from '../document-encoding.ts';
import type { JournalRecord } from './journal-record.ts';

const EMBEDDED_DOCUMENT = 0x03;
const DOC_FIELD = Buffer.from('doc\0', 'latin1');
const END_OF_DOCUMENT = Buffer.of(0);

/**
 * A record's BSON payload, as parts to write one after the other. A `put` record embeds the
 * document's bytes as they are (`{op, collection, doc}`), so a document is never serialized twice.
 */
export function encodeRecord(record: JournalRecord): Uint8Array[] {
  if (record.op !== 'put') return [BSON.serialize(record)];
  const head = BSON.serialize({ op: record.op, collection: record.collection });
  const doc = encodingOf(record.doc);
  const length = head.length - 1 + 1 + DOC_FIELD.length + doc.length + 1;
  const prefix = Buffer.allocUnsafe(head.length - 1 + 1 + DOC_FIELD.length);
  prefix.set(head.subarray(0, head.length - 1), 0);
  prefix.writeInt32LE(length, 0);
  prefix[head.length - 1] = EMBEDDED_DOCUMENT;
  prefix.set(DOC_FIELD, head.length);
  return [prefix, doc, END_OF_DOCUMENT];
}
