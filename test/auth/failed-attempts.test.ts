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

describe('failed attempts under parallel guessing', () => {
  it('counts attempts in flight, so a burst cannot run past the limit', async () => {
    const { startTestApp } = await import('../support/app.ts');
    const { hashSecret } = await import('../../src/auth/secret.ts');
    const { USERS } = await import('../../src/management/collections.ts');
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
