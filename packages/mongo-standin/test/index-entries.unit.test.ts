import { describe, expect, it } from 'vitest';
import type { IndexEntries } from '../src/storage/index-entries.ts';
import { fileStorage } from './support/file-storage.ts';

const storage = fileStorage('standin-entries-');

const key = (text: string) => Buffer.from(text, 'latin1');

/** A new index table holding, for each key, the record ids given. */
function table(entries: Record<string, number[]>): IndexEntries {
  const name = storage().write(() => storage().newTableName('i'));
  const index = storage().index(name);
  storage().write(() => {
    for (const [text, ids] of Object.entries(entries)) for (const id of ids) index.add(key(text), id);
  });
  return index;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('index entries', () => {
  it('keep each key once with its records in order, and give them by key, range and whole walk', () => {
    const index = table({ b: [7, 3, 3, 9], a: [2], c: [1, 2 ** 40 + 5] });
    expect(index.idsUnder(key('b'))).toEqual([3, 7, 9]);
    expect(index.idsUnder(key('bb'))).toEqual([]);
    expect(index.idsBetween(key('b'), key('c'))).toEqual([3, 7, 9]);
    expect(index.idsBetween(key('a'), key('b\xff'))).toEqual([2, 3, 7, 9]);
    expect([...index.idsInOrder(1)]).toEqual([2, 3, 7, 9, 1, 2 ** 40 + 5]);
    expect([...index.idsInOrder(-1)]).toEqual([2 ** 40 + 5, 1, 9, 7, 3, 2]);
    expect([...index.idsInOrder(1, 2)]).toEqual([7, 9, 1, 2 ** 40 + 5]);
    expect([...index.idsInOrder(-1, 3)]).toEqual([7, 3, 2]);
    expect(index.allIds()).toEqual([...index.idsInOrder(1)]);
    expect(index.size()).toBe(6);
    // Keys begin with a type's rank, some below what lmdb-js starts a walk at by default.
    const low = table({ '\x01': [4], '\x00': [8], b: [1] });
    expect(low.allIds()).toEqual([8, 4, 1]);
    expect([...low.idsInOrder(1)]).toEqual([8, 4, 1]);
    expect([...low.idsInOrder(-1)]).toEqual([1, 4, 8]);
    storage().write(() => {
      index.remove(key('b'), 7);
      index.remove(key('b'), 8);
      index.remove(key('a'), 2);
    });
    expect([...index.idsInOrder(1)]).toEqual([3, 9, 1, 2 ** 40 + 5]);
  });

  it('are measured without disturbing the table: records added after still show under their key', () => {
    const name = storage().write(() => storage().newTableName('i'));
    const index = storage().index(name);
    storage().write(() => {
      for (let id = 1; id <= 2_000; id++) index.add(key(`k${id % 50}`), id);
    });
    // At least 8 bytes a record: the records of keys held by many are in trees LMDB does not count.
    expect(storage().indexBytes(name)).toBeGreaterThan(2_000 * 8);
    storage().write(() => index.add(key('k7'), 5_000));
    expect(index.idsUnder(key('k7'))).toEqual([...range(0, 40).map((i) => i * 50 + 7), 5_000]);
  });

  it('walk thousands of records of one key in batches, forward and back, from any skip', () => {
    const many = range(1, 5_001);
    const index = table({ a: [1, 2], many, z: [3] });
    const all = [1, 2, ...many, 3];
    expect([...index.idsInOrder(1)]).toEqual(all);
    expect([...index.idsInOrder(-1)]).toEqual([...all].reverse());
    for (const skip of [0, 1, 2, 17, 1_500, 4_000, 5_001, 5_003])
      expect([...index.idsInOrder(1, skip)]).toEqual(all.slice(skip));
    expect([...index.idsInOrder(-1, 1_000)]).toEqual([...all].reverse().slice(1_000));
  });

  it('take up a walk after a key removed whole meanwhile, and after records removed around the last given', () => {
    const index = table({ a: range(1, 101), b: range(1, 101), c: [7] });
    for (const direction of [1, -1] as const) {
      const walk = index.idsInOrder(direction);
      const given: number[] = [];
      // The first batch (16 records) is read; the walk stands on its last, inside a's or c then b's records.
      for (let i = 0; i < 16; i++) given.push(walk.next().value as number);
      const standing = direction === 1 ? 'a' : 'b';
      const last = given[given.length - 1]!;
      storage().write(() => {
        for (const id of range(1, 101)) index.remove(key(standing), id);
        index.add(key(standing), last + direction);
      });
      for (const id of walk) given.push(id);
      const rest = direction === 1 ? [...range(1, 101), 7] : [...range(1, 101)].reverse();
      expect(given).toEqual([...given.slice(0, 16), last + direction, ...rest]);
      storage().write(() => {
        index.remove(key(standing), last + direction);
        for (const id of range(1, 101)) index.add(key(standing), id);
      });
    }
  });

  it('take up a walk after the last record given when writes moved the entries before it, seeing what was written ahead', () => {
    const many = range(1, 3_001).map((i) => i * 10);
    const index = table({ many, next: [5] });
    for (const direction of [1, -1] as const) {
      const walk = index.idsInOrder(direction);
      const given: number[] = [];
      for (let i = 0; i < 100; i++) given.push(walk.next().value as number);
      // Behind the walk: records removed and added under the key it is in; ahead: one added.
      const behind = direction === 1 ? [10, 20, 30] : [30_000, 29_990];
      storage().write(() => {
        for (const id of behind) index.remove(key('many'), id);
        index.add(key('many'), direction === 1 ? 15 : 29_995);
        index.add(key('many'), direction === 1 ? 25_005 : 15);
      });
      for (const id of walk) given.push(id);
      const expected =
        direction === 1
          ? [...many.slice(0, 100), ...many.slice(100, 2_500), 25_005, ...many.slice(2_500), 5]
          : [
              5,
              ...[...many].reverse().slice(0, 99),
              ...[...many]
                .reverse()
                .slice(99)
                .filter((id) => id > 15),
              15,
              10,
            ];
      expect(given).toEqual(expected);
      storage().write(() => {
        for (const id of behind) index.add(key('many'), id);
        index.remove(key('many'), 15);
        index.remove(key('many'), 29_995);
        index.remove(key('many'), 25_005);
      });
    }
  });
});
