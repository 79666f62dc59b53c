/** A small deterministic generator (mulberry32), so that a failing generated case can be replayed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    between: (low: number, high: number) => low + next() * (high - low),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}
