import { Binary, BSONRegExp, Decimal128, Double, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import { compareValues } from '../src/compare.ts';
import { encodeKey, MAX_KEY_BYTES, storedKey } from '../src/storage/key-encoding.ts';

/** Values of every BSON type, several of each, in no particular order. */
const values: unknown[] = [
  null,
  new MinKey(),
  new MaxKey(),
  -Infinity,
  -1e300,
  -2.5,
  -1,
  -0,
  0,
  new Double(1),
  1,
  new Long(1),
  1.5,
  new Long('9007199254740993'),
  Number.MAX_SAFE_INTEGER,
  Infinity,
  NaN,
  new Decimal128('2.25'),
  '',
  'a',
  'a\u0000',
  'a\u0000b',
  'ab',
  'b',
  'é',
  'z',
  '\u{1F600}',
  {},
  { a: 1 },
  { a: 1, b: 2 },
  { a: 2 },
  { b: 1 },
  { a: 'x' },
  [],
  [1],
  [1, 2],
  [2],
  ['a'],
  new Binary(Buffer.from([1, 2])),
  new Binary(Buffer.from([1])),
  new Binary(Buffer.from([0, 9])),
  new ObjectId('000000000000000000000001'),
  new ObjectId('ffffffffffffffffffffffff'),
  false,
  true,
  new Date(-86_400_000),
  new Date(0),
  new Date(1_700_000_000_000),
  new Timestamp({ t: 1, i: 2 }),
  new Timestamp({ t: 2, i: 1 }),
  new BSONRegExp('a', 'i'),
  /b/,
];

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe('index key encoding', () => {
  it('orders and equates every pair of values as MongoDB compares them', () => {
    for (const a of values)
      for (const b of values) {
        // Integers beyond 2^53 are keyed as doubles: documented, and lookups filter them apart.
        if ([a, b].some((v) => v instanceof Long && !Number.isSafeInteger(v.toNumber()))) continue;
        const expected = sign(compareValues(a, b));
        const actual = sign(Buffer.compare(encodeKey([a]), encodeKey([b])));
        expect(actual, `${String(a)} vs ${String(b)}`).toBe(expected);
      }
  });

  it('orders compound keys field by field', () => {
    const keys = [
      ['a', 2],
      ['a', 10],
      ['ab', 1],
      [null, 'z'],
      ['a', null],
    ].map((key) => encodeKey(key));
    const sorted = [...keys].sort(Buffer.compare).map((key) => keys.indexOf(key));
    expect(sorted).toEqual([3, 4, 0, 1, 2]);
  });

  it('cuts keys longer than LMDB takes, and says so', () => {
    const long = 'x'.repeat(5000);
    const { key, truncated } = storedKey([long]);
    expect(truncated).toBe(true);
    expect(key.length).toBe(MAX_KEY_BYTES + 1);
    expect(storedKey(['short']).truncated).toBe(false);
    // Still in order against shorter keys that differ early.
    expect(Buffer.compare(storedKey(['w']).key, key)).toBe(-1);
    expect(Buffer.compare(storedKey(['y']).key, key)).toBe(1);
  });
});
