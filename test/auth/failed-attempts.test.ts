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
