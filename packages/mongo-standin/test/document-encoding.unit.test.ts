import { BSON, ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { decodeDocument } from '../src/bson-values.ts';
import { encodingOf, rememberEncoding, rememberIdFirstEncoding } from '../src/document-encoding.ts';
import { withId } from '../src/query/apply-update.ts';

describe('document encodings', () => {
  it('move a trailing _id to the front at the byte level, as serializing the stored version would', () => {
    const received = { name: 'x', nested: { a: [1, 2.5] }, _id: new ObjectId() };
    const bytes = BSON.serialize(received);
    const decoded = decodeDocument(bytes);
    rememberEncoding(decoded, bytes);
    const stored = withId(decoded);
    rememberIdFirstEncoding(stored, decoded);
    expect(Buffer.from(encodingOf(stored))).toEqual(Buffer.from(BSON.serialize(stored)));
    expect(Object.keys(decodeDocument(encodingOf(stored)))).toEqual(['_id', 'name', 'nested']);
  });

  it('leave documents whose _id was not last to be serialized', () => {
    const decoded = decodeDocument(BSON.serialize({ a: 1, _id: 2, b: 3 }));
    rememberEncoding(decoded, BSON.serialize({ a: 1, _id: 2, b: 3 }));
    const stored = withId(decoded);
    rememberIdFirstEncoding(stored, decoded);
    expect(Buffer.from(encodingOf(stored))).toEqual(Buffer.from(BSON.serialize({ _id: 2, a: 1, b: 3 })));
  });
});
