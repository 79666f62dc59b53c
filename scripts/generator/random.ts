// A small, fast, seedable PRNG (sfc32, seeded through splitmix32) so that a seed fixes every byte
// of the generator's output.

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hex32(word: number): string {
  return HEX[word >>> 24]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const init = splitmix32(seed);
    this.a = init();
    this.b = init();
    this.c = init();
    this.d = init();
    // Discard the first outputs, which are poorly mixed.
    for (let i = 0; i < 16; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** `count` distinct items in their original order (selection sampling). */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen: T[] = [];
    for (let index = 0; index < items.length && chosen.length < count; index++) {
      if (this.int(items.length - index) < count - chosen.length) chosen.push(items[index]!);
    }
    return chosen;
  }

  /** A random (version 4) uuid. */
  uuid(): string {
    const w0 = this.uint32();
    const w1 = this.uint32();
    const w2 = this.uint32();
    const w3 = this.uint32();
    const h1 = hex32(w1);
    const h2 = hex32(((w2 & 0x3fffffff) | 0x80000000) >>> 0);
    return `${hex32(w0)}-${h1.slice(0, 4)}-4${h1.slice(5, 8)}-${h2.slice(0, 4)}-${h2.slice(4)}${hex32(w3)}`;
  }
}
