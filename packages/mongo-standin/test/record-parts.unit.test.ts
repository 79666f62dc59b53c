import { describe, expect, it } from 'vitest';
import { decodeDocument, encodeDocument } from '../src/bson-values.ts';
import { fieldSubsets } from '../src/storage/field-subset.ts';
import { APART_BYTES, isHead, joinRecord, splitRecord } from '../src/storage/record-parts.ts';

const large = (letter: string) => letter.repeat(APART_BYTES);

describe('a document stored as its head and its large fields', () => {
  const doc = { _id: 1, first: large('a'), small: 2, second: large('b'), last: 'z' };
  const bytes = Buffer.from(encodeDocument(doc));
  const { head, apart } = splitRecord(bytes);

  it('keeps a small document whole, and tells it from a head', () => {
    const small = Buffer.from(encodeDocument({ _id: 1, text: 'a'.repeat(APART_BYTES - 100) }));
    expect(splitRecord(small)).toEqual({ head: small, apart: null });
    expect(isHead(small)).toBe(false);
    expect(isHead(head)).toBe(true);
  });

  it('moves out only the fields of at least APART_BYTES, and joins back to the very same bytes', () => {
    expect(head.length).toBeLessThan(100);
    expect(Object.keys(decodeDocument(apart!))).toEqual(['first', 'second']);
    expect(joinRecord(head, apart!)).toEqual(bytes);
  });

  it('gives small fields from the head alone, and large ones from the fields apart, read once and only then', () => {
    let reads = 0;
    const readApart = () => (reads++, apart!);
    const [small] = fieldSubsets(head, [new Set(['_id', 'small', 'last'])], readApart);
    expect(decodeDocument(small!)).toEqual({ _id: 1, small: 2, last: 'z' });
    expect(reads).toBe(0);
    const [ids, served] = fieldSubsets(
      head,
      [new Set(['_id']), new Set(['last', 'second', 'first'])],
      readApart,
    );
    expect(decodeDocument(ids!)).toEqual({ _id: 1 });
    expect(decodeDocument(served!)).toEqual({ first: doc.first, second: doc.second, last: 'z' });
    expect(reads).toBe(1);
    const [second] = fieldSubsets(head, [new Set(['second'])], readApart);
    expect(decodeDocument(second!)).toEqual({ second: doc.second });
  });

  it('refuses to cut a field kept apart from the head alone', () => {
    expect(() => fieldSubsets(head, [new Set(['first'])])).toThrow(/kept apart/);
  });
});
