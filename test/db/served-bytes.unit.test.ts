import { BSON, Binary } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { servedBytes, soleStoredBytes } from '../../src/db/served-bytes.ts';

describe('soleStoredBytes', () => {
  it('gives the bytes of the one stored form of a document read undecoded, as stored', () => {
    const json = '{"id":"s1","name":"Café ☕"}';
    for (const field of ['_item', '_json'] as const) {
      const raw = BSON.serialize({ [field]: new Binary(servedBytes(json)) });
      expect(soleStoredBytes(raw, field).toString('utf8')).toBe(json);
    }
  });

  it('refuses a document holding anything else than that form first', () => {
    const form = new Binary(servedBytes('{}'));
    const oldBinary = new Binary(servedBytes('{}'), Binary.SUBTYPE_BYTE_ARRAY);
    for (const document of [
      {},
      { _id: 1, _item: form },
      { _json: form },
      { _item: '{}' },
      { _items: form },
      { _item: oldBinary },
    ])
      expect(() => soleStoredBytes(BSON.serialize(document), '_item')).toThrow(/_item alone/);
    const cut = BSON.serialize({ _item: form }).subarray(0, 16);
    expect(() => soleStoredBytes(cut, '_item')).toThrow(/_item alone/);
  });
});
