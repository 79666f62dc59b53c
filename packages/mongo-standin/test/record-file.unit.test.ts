import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frameRecord, readRecords } from '../src/storage/record-file.ts';
import { makeDataDir } from './support/harness.ts';

const payload = (n: number) => Buffer.alloc(5 + (n % 13), n);
const framed = (n: number) => Buffer.concat(frameRecord([payload(n).subarray(0, 3), payload(n).subarray(3)]));

describe('record files', () => {
  it('read back records whatever the read size, records spanning reads included', async () => {
    const path = join(await makeDataDir(), 'records');
    await writeFile(path, Buffer.concat(Array.from({ length: 50 }, (_, n) => framed(n))));
    for (const chunkBytes of [1, 7, 64, 1 << 20]) {
      const result = await readRecords(path, chunkBytes);
      expect(result.payloads).toEqual(Array.from({ length: 50 }, (_, n) => payload(n)));
      expect(result.validBytes).toBe(result.totalBytes);
    }
  });

  it('stop at a torn or corrupt record, whatever the read size', async () => {
    const path = join(await makeDataDir(), 'records');
    const corrupt = framed(3);
    corrupt[corrupt.length - 1]! ^= 0xff;
    const intact = Buffer.concat([framed(1), framed(2)]);
    await writeFile(path, Buffer.concat([intact, corrupt, framed(4)]));
    for (const chunkBytes of [5, 1 << 20]) {
      const result = await readRecords(path, chunkBytes);
      expect(result.payloads).toHaveLength(2);
      expect(result.validBytes).toBe(intact.length);
    }
    // A header promising more bytes than the file holds.
    await writeFile(path, intact);
    const header = Buffer.alloc(8);
    header.writeUInt32LE(0xffffffff, 0);
    await appendFile(path, header);
    const torn = await readRecords(path, 4);
    expect(torn.payloads).toHaveLength(2);
    expect(torn.validBytes).toBe(intact.length);
  });

  it('read a chunk holding more records than a function takes arguments', async () => {
    const path = join(await makeDataDir(), 'records');
    const count = 300_000;
    await writeFile(path, Buffer.concat(Array.from({ length: count }, () => framed(0))));
    const result = await readRecords(path);
    expect(result.payloads).toHaveLength(count);
    expect(result.validBytes).toBe(result.totalBytes);
  });
});
