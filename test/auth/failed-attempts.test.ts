import { describe, expect, it } from 'vitest';
import { FailedAttempts } from '../../src/auth/failed-attempts.ts';

/** Fails at `login` from `client` as the access check does: only while not refused. */
function fail(attempts: FailedAttempts, client: string, login: string): boolean {
  if (attempts.retryAfterSeconds(client, login) > 0) return false;
  attempts.recordFailure(client, login);
  return true;
}

describe('FailedAttempts', () => {
  it('refuses a login at a client after its limit until the window has passed', () => {
    let now = 0;
    const attempts = new FailedAttempts({ perLogin: 3, perClient: 10, windowMs: 60_000, now: () => now });
    for (let i = 0; i < 3; i++) expect(fail(attempts, '10.0.0.1', 'alice')).toBe(true);
    expect(attempts.retryAfterSeconds('10.0.0.1', 'alice')).toBe(60);
    // Another login at the same address, and the same login at another address, may still try.
    expect(attempts.retryAfterSeconds('10.0.0.1', 'bob')).toBe(0);
    expect(attempts.retryAfterSeconds('10.0.0.2', 'alice')).toBe(0);
    now = 59_000;
    expect(attempts.retryAfterSeconds('10.0.0.1', 'alice')).toBe(1);
    now = 60_000;
    expect(attempts.retryAfterSeconds('10.0.0.1', 'alice')).toBe(0);
  });

  it('refuses every login at a client past its cap, so spraying logins stops', () => {
    let now = 0;
    const attempts = new FailedAttempts({ perLogin: 3, perClient: 10, windowMs: 60_000, now: () => now });
    const sprayed = Array.from({ length: 50 }, (_, i) => fail(attempts, '10.0.0.1', `user-${i}`));
    expect(sprayed.filter(Boolean)).toHaveLength(10);
    expect(attempts.retryAfterSeconds('10.0.0.1', 'someone-else')).toBe(60);
    expect(attempts.retryAfterSeconds('10.0.0.2', 'user-0')).toBe(0);
    now = 60_000;
    expect(attempts.retryAfterSeconds('10.0.0.1', 'someone-else')).toBe(0);
  });

  it('defaults to 10 failures a login and 100 a client in 15 minutes', () => {
    const attempts = new FailedAttempts({ now: () => 0 });
    for (let i = 0; i < 10; i++) expect(fail(attempts, '10.0.0.1', 'alice')).toBe(true);
    expect(attempts.retryAfterSeconds('10.0.0.1', 'alice')).toBe(15 * 60);
    const sprayed = Array.from({ length: 200 }, (_, i) => fail(attempts, '10.0.0.1', `user-${i}`));
    expect(sprayed.filter(Boolean)).toHaveLength(90);
  });

  it('keeps counting across successes, so valid logins cannot launder guesses', () => {
    const attempts = new FailedAttempts({ perLogin: 3, perClient: 4, windowMs: 60_000, now: () => 0 });
    // A success is counted first, then taken back, as the access check does.
    const succeed = (login: string) => {
      attempts.recordFailure('10.0.0.1', login);
      attempts.withdrawFailure('10.0.0.1', login);
    };
    attempts.recordFailure('10.0.0.1', 'alice');
    attempts.recordFailure('10.0.0.1', 'alice');
    succeed('alice');
    succeed('bob');
    attempts.recordFailure('10.0.0.1', 'alice');
    expect(attempts.retryAfterSeconds('10.0.0.1', 'alice')).toBe(60);
    expect(attempts.retryAfterSeconds('10.0.0.1', 'bob')).toBe(0);
    attempts.recordFailure('10.0.0.1', 'carol');
    // The address's cap (4) is reached: the successes in between took back nothing else.
    expect(attempts.retryAfterSeconds('10.0.0.1', 'bob')).toBe(60);
  });
});

describe('FailedAttempts under a flood', () => {
  it('remembers at most its bound of addresses, forgetting the oldest first', () => {
    let now = 0;
    const attempts = new FailedAttempts({
      perLogin: 2,
      perClient: 2,
      windowMs: 60_000,
      now: () => now,
      maxKeys: 1_000,
    });
    attempts.recordFailure('10.0.0.1', 'alice');
    attempts.recordFailure('10.0.0.1', 'bob');
    now = 1;
    for (let i = 0; i < 999; i++) attempts.recordFailure(`192.0.2.${i}`, 'alice');
    // The bound is reached but not passed: the first client is still refused.
    expect(attempts.retryAfterSeconds('10.0.0.1', 'carol')).toBe(60);
    attempts.recordFailure('198.51.100.1', 'alice');
    expect(attempts.retryAfterSeconds('10.0.0.1', 'carol')).toBe(0);
    attempts.recordFailure('198.51.100.1', 'bob');
    expect(attempts.retryAfterSeconds('198.51.100.1', 'carol')).toBe(60);
  });

  it('remembers at most its bound of logins, however many are sprayed and however long', () => {
    let now = 0;
    const attempts = new FailedAttempts({
      perLogin: 2,
      perClient: 5_000,
      windowMs: 60_000,
      now: () => now,
      maxKeys: 1_000,
    });
    attempts.recordFailure('10.0.0.1', 'alice');
    attempts.recordFailure('10.0.0.1', 'alice');
    now = 1;
    const long = 'x'.repeat(10_000);
    for (let i = 0; i < 999; i++) attempts.recordFailure('10.0.0.2', `${long}-${i}`);
    expect(attempts.retryAfterSeconds('10.0.0.1', 'alice')).toBe(60);
    attempts.recordFailure('10.0.0.2', 'one-more');
    // Alice's count was the oldest of the 1,000 remembered; her address's count is below its cap.
    expect(attempts.retryAfterSeconds('10.0.0.1', 'alice')).toBe(0);
    attempts.recordFailure('10.0.0.2', 'one-more');
    expect(attempts.retryAfterSeconds('10.0.0.2', 'one-more')).toBe(60);
  });
});

describe('failed attempts of concurrent calls, through the app', () => {
  const RIGHT_CODE = 'the-right-code-123';

  /** Runs `calls` against an app with one user, `bob`, whom no grant lets in: each call's status. */
  async function withBob(calls: (call: (code: string) => Promise<number>) => Promise<void>) {
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
        code_hash: await hashSecret(RIGHT_CODE),
      });
      await calls((code) =>
        fetch(`${app.url}/management/users/u1`, {
          headers: { authorization: `Basic ${Buffer.from(`bob:${code}`).toString('base64')}` },
        }).then((response) => response.status),
      );
    } finally {
      await app.close();
    }
  }

  it('counts attempts in flight, so a burst cannot run past the limit', async () => {
    await withBob(async (guess) => {
      const statuses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => guess(i === 30 ? RIGHT_CODE : `wrong-guess-${i}`)),
      );
      // At most the limit (10) of these reach the code check; the rest are refused with 429 beforehand.
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(30);
      expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(10);
    });
  });

  it('lets a busy client make more concurrent calls with its right code than the limit allows failures', async () => {
    await withBob(async (call) => {
      // Each counts as failed while its check is under way: 25 at once used to meet the limit (10) and be
      // refused. (No grant: authenticated, each is the 403 of a missing grant.)
      const statuses = await Promise.all(Array.from({ length: 25 }, () => call(RIGHT_CODE)));
      expect(statuses.filter((status) => status === 429)).toEqual([]);
      expect(new Set(statuses)).toEqual(new Set([403]));
    });
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
