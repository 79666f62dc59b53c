import { describe, expect, it } from 'vitest';
import { RecordIds } from '../src/engine/record-ids.ts';

describe('RecordIds', () => {
  it('holds each id of a walk once, in the order first met, as a Set of them would', () => {
    const walk = [7, 3, 64, 3, 1, 7, 900, 8];
    const ids = RecordIds.of(walk);
    const set = new Set(walk);
    expect(ids).toBeInstanceOf(RecordIds);
    expect(ids.size).toBe(set.size);
    expect([...ids]).toEqual([...set]);
    expect([...ids.keys()]).toEqual([...set.keys()]);
    expect([...ids.values()]).toEqual([...set.values()]);
    expect([...ids.entries()]).toEqual([...set.entries()]);
    const seen: number[][] = [];
    ids.forEach((id, again, whole) => seen.push([id, again, whole.size]));
    expect(seen).toEqual([...set].map((id) => [id, id, set.size]));
    for (let id = 0; id <= 1000; id++) expect(ids.has(id), String(id)).toBe(set.has(id));
    expect(ids.has(100_000)).toBe(false);
  });

  it('is empty for an empty walk', () => {
    const ids = RecordIds.of([]);
    expect(ids.size).toBe(0);
    expect(ids.has(0)).toBe(false);
    expect(ids.has(1)).toBe(false);
    expect([...ids]).toEqual([]);
  });

  it('is a Set when an id is too large for a bitmap worth its bytes', () => {
    const ids = RecordIds.of([1, 2 ** 40, 1]);
    expect(ids).toBeInstanceOf(Set);
    expect([...ids]).toEqual([1, 2 ** 40]);
  });
});
