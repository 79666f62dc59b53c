import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
} from 'bson';
import { describe, expect, it } from 'vitest';
import { decodeDocument, encodeDocument } from '../src/bson-values.ts';
import {
  countFields,
  fieldSubsets,
  findFields,
  pipelineFields,
  replyFields,
} from '../src/storage/field-subset.ts';

/** A document with a field of every BSON type, each followed by a marker field. */
const values: Record<string, unknown> = {
  double: new Double(1.5),
  string: 'text é 😀',
  document: { a: { b: [1, 2] } },
  array: [1, 'two', { three: 3 }],
  binary: new Binary(Buffer.from([1, 2, 3]), 4),
  objectId: new ObjectId(),
  boolean: true,
  date: new Date(1_700_000_000_000),
  null: null,
  regex: new BSONRegExp('^a.c$', 'im'),
  dbRef: new DBRef('other', new ObjectId()),
  code: new Code('function () { return 1; }'),
  symbol: new BSONSymbol('sym'),
  codeWithScope: new Code('function () { return x; }', { x: 1 }),
  int32: new Int32(7),
  timestamp: new Timestamp({ t: 5, i: 6 }),
  int64: Long.fromString('9007199254740993'),
  decimal: Decimal128.fromString('1.25'),
  minKey: new MinKey(),
  maxKey: new MaxKey(),
};

const fieldSubset = (bytes: Uint8Array, fields: ReadonlySet<string>) => fieldSubsets(bytes, [fields])[0]!;

describe('fieldSubsets', () => {
  const doc: Record<string, unknown> = { _id: 1 };
  for (const [name, value] of Object.entries(values)) {
    doc[name] = value;
    doc[`${name}_after`] = name;
  }
  const bytes = encodeDocument(doc);
  const whole = decodeDocument(bytes);

  it('keeps exactly the named top-level fields of every BSON type, in order, decoding as the whole does', () => {
    for (const name of Object.keys(values)) {
      const subset = decodeDocument(fieldSubset(bytes, new Set([name, `${name}_after`])));
      expect(Object.keys(subset), name).toEqual([name, `${name}_after`]);
      expect(subset, name).toEqual({ [name]: whole[name], [`${name}_after`]: name });
    }
  });

  it('tells names apart by their UTF-8 bytes: accents, other scripts, and names of one length', () => {
    const named = encodeDocument({ cafe: 1, café: 2, 'cafe\u0301': 3, 名前: 4, abcd: 5, abce: 6 });
    const pick = (...names: string[]) => decodeDocument(fieldSubset(named, new Set(names)));
    expect(pick('café', 'abce')).toEqual({ café: 2, abce: 6 });
    expect(pick('cafe\u0301', '名前')).toEqual({ 'cafe\u0301': 3, 名前: 4 });
    expect(pick('caf', 'abc', 'cafés')).toEqual({});
  });

  it('gives an empty document when no field is named, and the whole when all are', () => {
    expect(decodeDocument(fieldSubset(bytes, new Set()))).toEqual({});
    expect(Buffer.from(fieldSubset(bytes, new Set(Object.keys(doc))))).toEqual(Buffer.from(bytes));
  });

  it('cuts each set of names in one walk, a field named in several going into each', () => {
    const [first, second] = fieldSubsets(bytes, [new Set(['_id', 'int32']), new Set(['int32', 'string'])]);
    expect(decodeDocument(first!)).toEqual({ _id: 1, int32: 7 });
    expect(decodeDocument(second!)).toEqual({ string: whole.string, int32: 7 });
  });
});

describe('findFields', () => {
  it('reads the heads of the paths an inclusion projection, the filter and the sort read, with _id', () => {
    expect(findFields({ 'a.b': 1, $or: [{ c: 2 }, { 'd.e': 3 }] }, { f: 1 }, { 'g.h': 1, i: 1 })).toEqual({
      read: new Set(['_id', 'a', 'c', 'd', 'f', 'g', 'i']),
      reply: null,
    });
  });

  it('cuts a plain top-level inclusion from the stored bytes, reading only what filter and sort do', () => {
    expect(findFields({ 'a.b': 1 }, { c: -1 }, { _id: 0, d: 1 })).toEqual({
      read: new Set(['_id', 'a', 'c']),
      reply: new Set(['d']),
    });
  });

  it('asks for whole documents when a part may read any field', () => {
    expect(findFields({}, undefined, undefined)).toBeNull();
    expect(findFields({}, undefined, {})).toBeNull();
    expect(findFields({}, undefined, { a: 0 })).toBeNull();
    expect(findFields({}, undefined, { _id: 0 })).toBeNull();
    expect(findFields({}, undefined, { a: { $slice: 2 } })).toBeNull();
    expect(findFields({}, undefined, { a: '$b' })).toBeNull();
    expect(findFields({}, undefined, { a: { $add: ['$b', 1] } })).toBeNull();
    expect(findFields({ $expr: { $gt: ['$a', 1] } }, undefined, { a: 1 })).toBeNull();
    expect(findFields({ $where: 'true' }, undefined, { a: 1 })).toBeNull();
  });
});

describe('countFields', () => {
  it('reads what the filter reads, or whole documents when it may read any field', () => {
    expect(countFields({ 'a.b': 1, $and: [{ c: 1 }] })).toEqual({
      read: new Set(['_id', 'a', 'c']),
      reply: null,
    });
    expect(countFields({ $where: 'true' })).toBeNull();
  });
});

describe('pipelineFields', () => {
  it('reads what the stages read up to one making documents of its own', () => {
    const page = [{ $match: { a: 1 } }, { $sort: { 'b.c': 1 } }, { $skip: 5 }, { $limit: 5 }];
    expect(pipelineFields([...page, { $project: { d: 1 } }, { $match: { e: 1 } }])).toEqual(
      new Set(['_id', 'a', 'b', 'd']),
    );
    expect(pipelineFields([{ $match: { a: 1 } }, { $count: 'n' }, { $match: { n: 1 } }])).toEqual(
      new Set(['_id', 'a']),
    );
    expect(
      pipelineFields([{ $facet: { total: [{ $count: 'n' }], page: [...page, { $project: { d: 1 } }] } }]),
    ).toEqual(new Set(['_id', 'a', 'b', 'd']));
  });

  it('is null when a stage may read any field, or the documents pass out whole', () => {
    for (const stages of [
      [],
      [{ $match: { a: 1 } }],
      [{ $match: { $expr: true } }, { $count: 'n' }],
      [{ $addFields: { b: 1 } }, { $count: 'n' }],
      [{ $project: { a: 0 } }],
      [{ $facet: { total: [{ $count: 'n' }], all: [{ $skip: 1 }] } }],
    ])
      expect(pipelineFields(stages), JSON.stringify(stages)).toBeNull();
  });
});

describe('replyFields', () => {
  it('names what a plain inclusion of top-level fields shows, _id unless excluded', () => {
    expect(replyFields({ a: 1, b: true })).toEqual(new Set(['_id', 'a', 'b']));
    expect(replyFields({ _id: 0, a: 1 })).toEqual(new Set(['a']));
  });

  it('is null for any other projection', () => {
    for (const projection of [
      undefined,
      {},
      { 'a.b': 1 },
      { a: 0 },
      { a: '$b' },
      { a: { $slice: 1 } },
      { _id: 0 },
    ])
      expect(replyFields(projection), JSON.stringify(projection)).toBeNull();
  });
});
