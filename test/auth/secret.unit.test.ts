import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hashSecret, secretMatches } from '../../src/auth/secret.ts';

/** What settles first: the check, or a turn of the event loop (scrypt's work on the thread pool cannot). */
const beforeNextTurn = (check: Promise<boolean>) =>
  Promise.race([check, new Promise<'hashed'>((resolve) => setImmediate(() => resolve('hashed')))]);

describe('secretMatches', () => {
  it('hashes a secret once to let it in, then answers at once; a wrong one is hashed every time', async () => {
    const stored = await hashSecret('right code');
    expect(await beforeNextTurn(secretMatches('right code', stored))).toBe('hashed');
    expect(await secretMatches('right code', stored)).toBe(true);
    expect(await beforeNextTurn(secretMatches('right code', stored))).toBe(true);

    for (let attempt = 0; attempt < 2; attempt += 1) {
      const wrong = secretMatches('wrong code', stored);
      expect(await beforeNextTurn(wrong)).toBe('hashed');
      expect(await wrong).toBe(false);
    }
  });

  it('lets a replaced code in against its old hash only, and the new code against the new one only', async () => {
    const before = await hashSecret('shared code');
    const after = await hashSecret('new code');
    expect(await secretMatches('shared code', before)).toBe(true);
    expect(await secretMatches('shared code', after)).toBe(false);
    expect(await secretMatches('new code', after)).toBe(true);
    expect(await secretMatches('new code', before)).toBe(false);
  });
});

describe('checks of many codes at once', () => {
  it('leave the thread pool to compression: a gzip settles before any of eight checks', async () => {
    const stored = await hashSecret('the right code');
    const settled: string[] = [];
    const checks = Array.from({ length: 8 }, (_, n) =>
      secretMatches(`guess ${n}`, stored).then(() => settled.push('check')),
    );
    const compressed = promisify(gzip)(Buffer.alloc(1024, 'a')).then(() => settled.push('gzip'));
    await Promise.all([...checks, compressed]);
    expect(settled[0]).toBe('gzip');
  });
});
