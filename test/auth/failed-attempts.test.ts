import { describe, expect, it } from 'vitest';
import { FailedAttempts } from '../../src/auth/failed-attempts.ts';

describe('FailedAttempts', () => {
  it('refuses a client after the limit until the window has passed', () => {
    let now = 0;
    const attempts = new FailedAttempts(3, 60_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(attempts.retryAfterSeconds('10.0.0.1')).toBe(0);
      attempts.recordFailure('10.0.0.1');
    }
    expect(attempts.retryAfterSeconds('10.0.0.1')).toBe(60);
    expect(attempts.retryAfterSeconds('10.0.0.2')).toBe(0);
    now = 59_000;
    expect(attempts.retryAfterSeconds('10.0.0.1')).toBe(1);
    now = 60_000;
    expect(attempts.retryAfterSeconds('10.0.0.1')).toBe(0);
  });

  it('keeps counting across successes, so valid logins cannot launder guesses', () => {
    const attempts = new FailedAttempts(3, 60_000, () => 0);
    attempts.recordFailure('10.0.0.1');
    attempts.recordFailure('10.0.0.1');
    // (a successful login happens here: nothing is recorded for it)
    attempts.recordFailure('10.0.0.1');
    expect(attempts.retryAfterSeconds('10.0.0.1')).toBe(60);
  });
});

describe('FailedAttempts under a flood of addresses', () => {
  it('remembers at most its bound, forgetting the oldest first', () => {
    let now = 0;
    const attempts = new FailedAttempts(2, 60_000, () => now, 1_000);
    attempts.recordFailure('10.0.0.1');
    attempts.recordFailure('10.0.0.1');
    now = 1;
    for (let i = 0; i < 999; i++) attempts.recordFailure(`192.0.2.${i}`);
    // The bound is reached but not passed: the first client is still refused.
    expect(attempts.retryAfterSeconds('10.0.0.1')).toBe(60);
    attempts.recordFailure('198.51.100.1');
    expect(attempts.retryAfterSeconds('10.0.0.1')).toBe(0);
    attempts.recordFailure('198.51.100.1');
    expect(attempts.retryAfterSeconds('198.51.100.1')).toBe(60);
  });
});

describe('failed attempts under parallel guessing', () => {
  it('counts attempts in flight, so a burst cannot run past the limit', async () => {
    const { startTestApp } = await import('../support/app.ts');
    const { hashSecret } = await import('../../src/auth/secret.ts');
    const { USERS } = await import('../../src/db/protocol-records.ts');
    const app = await startTestApp();
    try {
      await app.database.db.collection(USERS).insertOne({
        id: 'u1',
        login: 'bob',
        name: 'Bob',
        email: 'bob@example.org',
        code_hash: await hashSecret('the-right-code-123'),
      });
      const guess = (code: string) =>
        fetch(`${app.url}/management/users/u1`, {
          headers: { authorization: `Basic ${Buffer.from(`bob:${code}`).toString('base64')}` },
        }).then((response) => response.status);
      const statuses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => guess(i === 30 ? 'the-right-code-123' : `wrong-guess-${i}`)),
      );
      // At most the limit (10) of these reach the code check; the rest are refused with 429 beforehand.
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(30);
      expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(10);
    } finally {
      await app.close();
    }
  });
});

describe('failed attempts behind a proxy (HSDS_TRUST_PROXY)', () => {
  it('counts by the address the proxy saw: a forged X-Forwarded-For neither escapes nor frames anyone', async () => {
    const { startTestApp } = await import('../support/app.ts');
    const app = await startTestApp({ HSDS_TRUST_PROXY: 'true' });
    try {
      // The proxy appends the address it saw; what comes before it, the client wrote.
      const attempt = (forwardedFor: string) =>
        fetch(`${app.url}/management/users`, {
          headers: {
            'x-appid': 'mallory',
            'x-appkey': 'a-wrong-guess-12345',
            'x-forwarded-for': forwardedFor,
          },
        }).then((response) => response.status);
      const statuses: number[] = [];
      for (let i = 1; i <= 11; i += 1) statuses.push(await attempt(`198.51.100.${i}, 192.0.2.66`));
      expect(statuses).toEqual([...Array<number>(10).fill(403), 429]);
      // Another client, in whose name the guesses above could have been forged, is not locked out.
      expect(await attempt('192.0.2.66, 192.0.2.7')).toBe(403);
    } finally {
      await app.close();
    }
  });
});
