import { describe, expect, it } from 'vitest';
import { KeptReads } from '../src/engine/kept-reads.ts';

describe('KeptReads', () => {
  const idAndPlace = new Set(['_id', 'loc']);
  const idAndName = new Set(['name', '_id']);

  it('gives a kept document for the same fields in any order, frozen through, until the next write', () => {
    let generation = 2;
    const kept = new KeptReads(() => generation);
    const doc = { _id: 1, loc: { type: 'Point', coordinates: [1, 2] } };
    kept.keep(1, idAndPlace, doc, 40, 2);
    expect(kept.get(1, new Set(['loc', '_id']))).toBe(doc);
    expect(kept.get(1, idAndName)).toBeUndefined();
    expect(Object.isFrozen(doc.loc.coordinates)).toBe(true);
    expect(() => (doc.loc.coordinates as number[]).push(3)).toThrow(TypeError);
    generation = 3; // a write begins
    expect(kept.get(1, idAndPlace)).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it('keeps nothing read while a write runs, or read before a write that has ended since', () => {
    let generation = 3;
    const kept = new KeptReads(() => generation);
    kept.keep(1, idAndPlace, { _id: 1 }, 10, 3);
    expect(kept.get(1, idAndPlace)).toBeUndefined();
    generation = 4;
    kept.keep(2, idAndPlace, { _id: 2 }, 10, 2);
    expect(kept.get(2, idAndPlace)).toBeUndefined();
    kept.keep(3, idAndPlace, { _id: 3 }, 10, 4);
    expect(kept.get(3, idAndPlace)).toEqual({ _id: 3 });
  });

  it('keeps no more bytes than its budget', () => {
    const kept = new KeptReads(() => 0, 100);
    for (let id = 0; id < 10; id++) kept.keep(id, idAndName, { _id: id }, 30, 0);
    expect(kept.size).toBe(90);
    expect([...Array(10).keys()].filter((id) => kept.get(id, idAndName))).toEqual([0, 1, 2]);
  });
});
