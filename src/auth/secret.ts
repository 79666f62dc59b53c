import { createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';

/** scrypt cost parameters (N=2^15, r=8, p=1: about 32 MiB and tens of milliseconds a hash). */
const COST: ScryptOptions = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/**
 * One hash at a time: scrypt runs on libuv's small thread pool (4 threads), which compression and file
 * reads share, and wrong codes are hashed every time; unchecked, a flood of guesses (each within the
 * per-address limits, from many addresses) held every gzip response for tens of seconds. Checks wait
 * their turn instead, and take one thread.
 */
const oneHashAtATime = pLimit(1);

const derive = (secret: string, salt: Buffer, options: ScryptOptions) =>
  oneHashAtATime(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(secret, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
      ),
  );

/** A salted scrypt hash of a secret, with its parameters: `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `secret` matches `stored`, compared in constant time. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(secret, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: COST.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Pairs of a stored hash and a secret found to match it, as keyed digests. That a secret matches a hash
 * never stops being true (a replaced code has a new hash, a removed user none to match), so a client
 * calling again with the same credentials is let in without scrypt's tens of milliseconds of CPU, which
 * would otherwise cap every protected path at a few dozen calls a second per core. Only matches are kept:
 * a wrong code or an unknown login costs the full check every time. The digests are keyed by a secret
 * made at start-up and held only in memory, so they say nothing of a code without it.
 */
const matched = new LRUCache<string, true>({ max: 10_000 });
const MATCHED_KEY = randomBytes(32);
const matchKey = (secret: string, stored: string) =>
  createHmac('sha256', MATCHED_KEY).update(stored).update('\0').update(secret).digest('base64url');

/** `verifySecret`, answering at once for a secret already found to match this stored hash. */
export async function secretMatches(secret: string, stored: string): Promise<boolean> {
  const key = matchKey(secret, stored);
  if (matched.has(key)) return true;
  const matches = await verifySecret(secret, stored);
  if (matches) matched.set(key, true);
  return matches;
}

/**
 * A hash nobody's secret matches, checked when a login is unknown, so that an unknown login and a wrong
 * code take the same time and cannot be told apart.
 */
export const unmatchableHash = hashSecret(randomBytes(32).toString('base64url'));
