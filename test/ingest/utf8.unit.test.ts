import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Random } from '../../scripts/generator/random.ts';
import { firstInvalidUtf8 } from '../../src/utf8.ts';
import {
  decodeUtf8,
  InvalidUtf8Error,
  refusingWideEncodings,
  Utf8StreamCheck,
  wideEncodingOf,
  WideEncodingError,
} from '../../src/ingest/sources/utf8.ts';

const bytes = (...values: number[]) => Buffer.from(values);

/** Numbers in [0, 1) from the generator's seedable PRNG, so a failure can be rerun. */
function random(seed: number): () => number {
  const source = new Random(seed);
  return () => source.next();
}

/** Bytes mostly ASCII and UTF-8, with stray Latin-1 bytes, cut characters and other ill-formed sequences. */
function mixedBytes(next: () => number, length: number): Buffer {
  const pieces = ['a', ',', '\n', '\r\n', '\r', 'é', '€', '😀', 'Ω'].map((text) => Buffer.from(text));
  const bad = [bytes(0xe9), bytes(0xc0, 0xaf), bytes(0xed, 0xa0, 0x80), bytes(0xf4, 0x90, 0x80, 0x80)];
  const out: Buffer[] = [];
  let size = 0;
  while (size < length) {
    const roll = next();
    const piece =
      roll < 0.85
        ? pieces[Math.floor(next() * pieces.length)]!
        : roll < 0.95
          ? bad[Math.floor(next() * bad.length)]!
          : Buffer.from('😀').subarray(0, 1 + Math.floor(next() * 3)); // a character cut short
    out.push(piece);
    size += piece.length;
  }
  return Buffer.concat(out);
}

/** The chunks of `data`, `size` bytes each. */
const inChunks = (data: Buffer, size: number): Buffer[] => {
  const chunks: Buffer[] = [];
  for (let start = 0; start < data.length; start += size) chunks.push(data.subarray(start, start + size));
  return chunks;
};

async function drain<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('telling a wide encoding by its first bytes', () => {
  it('reads byte order marks, UTF-32LE’s before UTF-16LE’s', () => {
    expect(wideEncodingOf(bytes(0xff, 0xfe, 0x7b, 0x00))).toBe('UTF-16LE');
    expect(wideEncodingOf(bytes(0xfe, 0xff, 0x00, 0x7b))).toBe('UTF-16BE');
    expect(wideEncodingOf(bytes(0xff, 0xfe, 0x00, 0x00))).toBe('UTF-32LE');
    expect(wideEncodingOf(bytes(0x00, 0x00, 0xfe, 0xff))).toBe('UTF-32BE');
    expect(wideEncodingOf(bytes(0xff, 0xfe))).toBe('UTF-16LE');
  });

  it('reads the NUL bytes around an ASCII first character without a mark', () => {
    expect(wideEncodingOf(Buffer.from('{"', 'utf16le'))).toBe('UTF-16LE');
    expect(wideEncodingOf(Buffer.from('{"', 'utf16le').swap16())).toBe('UTF-16BE');
    expect(wideEncodingOf(bytes(0x7b, 0, 0, 0))).toBe('UTF-32LE');
    expect(wideEncodingOf(bytes(0, 0, 0, 0x7b))).toBe('UTF-32BE');
    expect(wideEncodingOf(Buffer.from('i', 'utf16le'))).toBe('UTF-16LE');
  });

  it('finds none in UTF-8, with or without its byte order mark, nor in what is too short to tell', () => {
    for (const text of ['\uFEFF{"id":1}', '{"id":1}', 'id,name', 'é', '', '[']) {
      expect(wideEncodingOf(Buffer.from(text).subarray(0, 4)), text).toBeUndefined();
    }
  });

  it('refuses a stream in one before passing any of it on, however its first bytes arrive', async () => {
    const utf16 = Buffer.from('\uFEFF{"id":1}\n', 'utf16le');
    for (const size of [1, 2, 3, 5]) {
      const passed: Buffer[] = [];
      const reading = (async () => {
        for await (const chunk of refusingWideEncodings(Readable.from(inChunks(utf16, size))))
          passed.push(chunk);
      })();
      await expect(reading).rejects.toThrow(WideEncodingError);
      await expect(reading).rejects.toMatchObject({
        encoding: 'UTF-16LE',
        message:
          'the file is UTF-16LE, not UTF-8: convert it to UTF-8 first (e.g. iconv -f UTF-16LE -t UTF-8)',
      });
      expect(passed).toEqual([]);
    }
    const utf8 = Buffer.from('\uFEFF{"name":"Café"}\n');
    for (const size of [1, 2, 3, 5, utf8.length]) {
      const passed = await drain(refusingWideEncodings(Readable.from(inChunks(utf8, size))));
      expect(Buffer.concat(passed)).toEqual(utf8);
    }
    expect(await drain(refusingWideEncodings(Readable.from([])))).toEqual([]);
    expect(Buffer.concat(await drain(refusingWideEncodings(Readable.from(['a']))))).toEqual(Buffer.from('a'));
  });
});

describe('finding the first byte that is not UTF-8', () => {
  it('is -1 for UTF-8, the byte order mark and characters of every length included', () => {
    expect(firstInvalidUtf8(Buffer.from('\uFEFFa é € 😀 \u{10FFFF}'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.alloc(0))).toBe(-1);
  });

  it('is the offset where an ill-formed sequence starts', () => {
    const at = (prefix: string, ...bad: number[]) =>
      firstInvalidUtf8(Buffer.concat([Buffer.from(prefix), bytes(...bad), Buffer.from('"}')]));
    expect(at('{"name":"Caf', 0xe9)).toBe(12); // Latin-1 é
    expect(at('ab', 0x80)).toBe(2); // a continuation byte alone
    expect(at('ab', 0xc0, 0xaf)).toBe(2); // overlong
    expect(at('ab', 0xe0, 0x80, 0xaf)).toBe(2); // overlong
    expect(at('ab', 0xed, 0xa0, 0x80)).toBe(2); // a surrogate
    expect(at('ab', 0xf4, 0x90, 0x80, 0x80)).toBe(2); // past U+10FFFF
    expect(at('ab', 0xf5)).toBe(2);
    expect(at('€', 0xe2, 0x82)).toBe(3); // a character cut short
    expect(firstInvalidUtf8(Buffer.from('😀').subarray(0, 3))).toBe(0); // cut off at the end
  });

  it('agrees with the WHATWG decoder on where the first replacement goes', () => {
    const next = random(17);
    for (let round = 0; round < 2000; round += 1) {
      const data = mixedBytes(next, 1 + Math.floor(next() * 40));
      const decoded = new TextDecoder().decode(data);
      const at = firstInvalidUtf8(data);
      expect(at === -1, data.toString('hex')).toBe(!decoded.includes('\uFFFD'));
      if (at === -1) continue;
      expect(decoded.indexOf('\uFFFD'), data.toString('hex')).toBe(
        new TextDecoder().decode(data.subarray(0, at)).length,
      );
    }
  });

  it('decodes UTF-8 without its byte order mark, or throws with the offset', () => {
    expect(decodeUtf8(Buffer.from('\uFEFF{"a":"é"}'))).toBe('{"a":"é"}');
    expect(() => decodeUtf8(bytes(0x5b, 0x22, 0xe9, 0x22, 0x5d))).toThrow(new InvalidUtf8Error(2));
    expect(new InvalidUtf8Error(2).message).toBe('invalid UTF-8 at byte 2');
  });
});

describe('checking a stream for UTF-8 as it is read', () => {
  /**
   * Where records of `data` end: after every `step`th line break (CR or LF; the others are inside records,
   * as in a quoted CSV cell), and at its end.
   */
  function recordEnds(data: Buffer, step = 1): number[] {
    const ends: number[] = [];
    let breaks = 0;
    data.forEach((byte, at) => {
      if ((byte === 0x0a || byte === 0x0d) && (breaks += 1) % step === 0) ends.push(at + 1);
    });
    if (ends.at(-1) !== data.length) ends.push(data.length);
    return ends;
  }

  /** For each record, the first invalid offset the stream check gives for it, read in chunks of `size`. */
  async function perRecord(data: Buffer, size: number, ends: number[]): Promise<(number | undefined)[]> {
    const check = new Utf8StreamCheck();
    const found: (number | undefined)[] = [];
    const waiting = [...ends];
    let read = 0;
    for await (const chunk of check.check(Readable.from(inChunks(data, size)))) {
      read += chunk.length;
      // A record is taken once its bytes have been passed on, as a CSV parser would give it.
      while (waiting.length > 1 && waiting[0]! <= read) found.push(check.takeBefore(waiting.shift()!));
    }
    found.push(check.takeBefore(waiting.shift()!));
    return found;
  }

  /** The same, record by record over the whole bytes. */
  const expected = (data: Buffer, ends: number[]): (number | undefined)[] =>
    ends.map((end, index) => {
      const start = ends[index - 1] ?? 0;
      const at = firstInvalidUtf8(data.subarray(start, end));
      return at === -1 ? undefined : start + at;
    });

  it('finds nothing in UTF-8 whose characters are split between chunks anywhere', async () => {
    const data = Buffer.from('id,name\n1,Café 😀\r\n2,€uro Ω\r3,日本語😀😀');
    for (let size = 1; size <= data.length; size += 1) {
      const found = await perRecord(data, size, recordEnds(data));
      expect(found, `chunks of ${size}`).toEqual([undefined, undefined, undefined, undefined, undefined]);
    }
  });

  it('tells each record its first bad byte, whatever the chunks, a character cut off at the end included', async () => {
    const data = Buffer.concat([
      Buffer.from('id,name\n1,Caf'),
      bytes(0xe9),
      Buffer.from(' ok\n2,fine 😀\n3,'),
      bytes(0xe2, 0x82),
      Buffer.from('\n4,'),
      bytes(0xf0, 0x9f, 0x98),
    ]);
    const ends = recordEnds(data);
    expect(expected(data, ends)).toEqual([undefined, 13, undefined, 32, 37]);
    for (let size = 1; size <= data.length; size += 1) {
      expect(await perRecord(data, size, ends), `chunks of ${size}`).toEqual(expected(data, ends));
    }
  });

  it('agrees with the whole-buffer check on mixed bytes, records of one line or several, in every chunking', async () => {
    const next = random(29);
    for (let round = 0; round < 40; round += 1) {
      const data = mixedBytes(next, 60);
      for (const step of [1, 2, 3]) {
        const ends = recordEnds(data, step);
        for (const size of [1, 2, 3, 4, 7, 16, data.length]) {
          const label = `${data.toString('hex')}, records of ${step} lines, in chunks of ${size}`;
          expect(await perRecord(data, size, ends), label).toEqual(expected(data, ends));
        }
      }
    }
  });
});
