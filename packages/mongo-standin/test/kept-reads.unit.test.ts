import { describe, expect, it } from 'vitest';
import { KeptReads } from '../src/engine/kept-reads.ts';

describe('KeptReads', () => {
  const idAndPlace = new Set(['_id', 'loc']);
  const idAndName = new Set(['name', '_id']);

  it('gives a kept document of its table for the same fields in any order, frozen through, until a write', () => {
    let generation = 2;
    const kept = new KeptReads(() => generation);
    const doc = { _id: 1, loc: { type: 'Point', coordinates: [1, 2] } };
    kept.keep('c-1', 1, idAndPlace, doc, 40, 2);
    expect(kept.get('c-1', 1, new Set(['loc', '_id']))).toBe(doc);
    expect(kept.get('c-1', 1, idAndName)).toBeUndefined();
    expect(kept.get('c-2', 1, idAndPlace)).toBeUndefined();
    expect(Object.isFrozen(doc.loc.coordinates)).toBe(true);
    expect(() => (doc.loc.coordinates as number[]).push(3)).toThrow(TypeError);
    generation = 4; // a write began and ended
    kept.release();
    expect(kept.keptBytes).toBe(0);
    expect(kept.get('c-1', 1, idAndPlace)).toBeUndefined();
  });

  it('keeps nothing read while a write runs, or read before a write that has ended since', () => {
    let generation = 3;
    const kept = new KeptReads(() => generation);
    kept.keep('c-1', 1, idAndPlace, { _id: 1 }, 10, 3);
    expect(kept.get('c-1', 1, idAndPlace)).toBeUndefined();
    generation = 4;
    kept.keep('c-1', 2, idAndPlace, { _id: 2 }, 10, 2);
    expect(kept.get('c-1', 2, idAndPlace)).toBeUndefined();
    kept.keep('c-1', 3, idAndPlace, { _id: 3 }, 10, 4);
    expect(kept.get('c-1', 3, idAndPlace)).toEqual({ _id: 3 });
  });

  it('keeps no more bytes than its budget, for all its tables together', () => {
    const kept = new KeptReads(() => 0, 100);
    for (let id = 0; id < 10; id++) kept.keep(id % 2 ? 'c-1' : 'c-2', id, idAndName, { _id: id }, 30, 0);
    expect(kept.keptBytes).toBe(90);
    const found = (table: string) => [...Array(10).keys()].filter((id) => kept.get(table, id, idAndName));
    expect([...found('c-1'), ...found('c-2')]).toEqual([1, 0, 2]);
  });
});
