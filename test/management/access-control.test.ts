import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, PREFIX, startManagementApp, type Answer, type ManagementApp } from './management-app.ts';

let app: ManagementApp;
/** A user holding only the grants each test gives it. */
const clerk = { login: 'clerk', code: 'clerk-code-0123456789' };
let clerkId: string;

beforeAll(async () => {
  app = await startManagementApp();
  clerkId = (
    await app.admin('POST', `${PREFIX}/users`, { ...clerk, name: 'Clerk', email: 'clerk@example.org' })
  ).body.id;
});
afterAll(async () => app?.close());

async function grantClerk(path: string, verb: string): Promise<() => Promise<Answer>> {
  const { body } = await app.admin('POST', `${PREFIX}/services`, { user_id: clerkId, path, verb });
  return () => app.admin('DELETE', `${PREFIX}/services/${body.id}`);
}

/** Everything but the request-specific `instance`: what a refused caller learns. */
const refusal = ({ status, body }: Answer) => ({ status, body: { ...body, instance: undefined } });

/** The auth endpoint with these credentials. */
const authPath = (login: string, code: string, slash = '/') =>
  `${PREFIX}/users/auth${slash}?${new URLSearchParams({ login, code })}`;

const ENDPOINTS = [
  ['GET', '/users'],
  ['POST', '/users'],
  ['GET', '/users/some-id'],
  ['PUT', '/users/some-id'],
  ['DELETE', '/users/some-id'],
  ['GET', '/services'],
  ['POST', '/services'],
  ['GET', '/services/some-id'],
  ['PUT', '/services/some-id'],
  ['DELETE', '/services/some-id'],
] as const;

describe('access control', () => {
  it.each(ENDPOINTS)(
    '%s %s refuses callers without credentials, at both slash forms',
    async (method, path) => {
      for (const target of [`${PREFIX}${path}`, `${PREFIX}${path}/`]) {
        const answer = await app.call(method, target, {
          body: method === 'POST' || method === 'PUT' ? {} : undefined,
        });
        expect(answer.status, target).toBe(403);
        expect(answer.body).toMatchObject({ status: 403, code: 403, message: answer.body.detail });
        expect(answer.headers.get('content-type')).toBe('application/problem+json');
      }
    },
  );

  it('gives the same 403 for no credentials, a wrong code, an unknown login and a grant of another verb or path', async () => {
    const revoke = await grantClerk(`${PREFIX}/services*`, 'POST');
    const target = `${PREFIX}/services/`;
    const answers = [
      await app.call('GET', target),
      await app.call('GET', target, { as: { login: clerk.login, code: 'not-the-code-at-all' } }),
      await app.call('GET', target, { as: { login: 'nobody', code: clerk.code } }),
      await app.call('GET', target, { as: { ...clerk, scheme: 'basic' } }), // granted POST, not GET
      await app.call('GET', `${PREFIX}/users`, { as: clerk }), // granted /services only
      await app.call('GET', target, { as: { headers: { authorization: 'Basic bm9ib2R5' } } }), // no colon
      await app.call('GET', target, { as: { headers: { authorization: 'Bearer abc' } } }),
    ];
    expect(answers.every((answer) => answer.status === 403)).toBe(true);
    expect(new Set(answers.map((answer) => JSON.stringify(refusal(answer)))).size).toBe(1);
    await revoke();
  });

  it('accepts HTTP Basic credentials as it does x-appid/x-appkey', async () => {
    const revoke = await grantClerk(`${PREFIX}/users`, 'GET');
    const withKey = await app.call('GET', `${PREFIX}/users/`, { as: clerk });
    const withBasic = await app.call('GET', `${PREFIX}/users`, { as: { ...clerk, scheme: 'basic' } });
    expect(withKey.status).toBe(200);
    expect(withBasic).toMatchObject({ status: 200, body: withKey.body });
    await revoke();
  });

  it('lets a prefix grant reach every path under it, and nothing else', async () => {
    const revoke = await grantClerk(`${PREFIX}/users*`, 'GET');
    expect((await app.call('GET', `${PREFIX}/users`, { as: clerk })).status).toBe(200);
    expect((await app.call('GET', `${PREFIX}/users/${clerkId}/`, { as: clerk })).status).toBe(200);
    expect((await app.call('GET', `${PREFIX}/services`, { as: clerk })).status).toBe(403);
    expect((await app.call('DELETE', `${PREFIX}/users/${clerkId}`, { as: clerk })).status).toBe(403);
    await revoke();
    expect((await app.call('GET', `${PREFIX}/users`, { as: clerk })).status).toBe(403);
  });

  it('routes only the exact spelling of the prefix, which grants are checked against', async () => {
    expect((await app.admin('GET', '/MANAGEMENT/users')).status).toBe(404);
    expect((await app.admin('GET', `${PREFIX}/Users`)).status).toBe(404);
  });

  it('keeps management answers out of caches', async () => {
    const answer = await app.admin('GET', `${PREFIX}/users`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('etag')).toBeNull();
  });
});

describe('GET /users/auth/', () => {
  it('returns the access entries of the user whose login and code it is given, with no other credentials', async () => {
    const revokes = [await grantClerk('/meta*', 'GET'), await grantClerk(`${PREFIX}/users`, 'POST')];
    for (const slash of ['', '/']) {
      const answer = await app.call('GET', authPath(clerk.login, clerk.code, slash));
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ total_items: 2, page_number: 1 });
      expect(answer.body.contents).toEqual([
        { id: expect.any(String), user_id: clerkId, path: '/management/users', verb: 'POST' },
        { id: expect.any(String), user_id: clerkId, path: '/meta*', verb: 'GET' },
      ]);
    }
    for (const revoke of revokes) await revoke();
  });

  it('gives a wrong login, a wrong code and missing parameters the same 403', async () => {
    const answers = [
      await app.call('GET', authPath(clerk.login, 'not-the-code-at-all')),
      await app.call('GET', authPath('nobody', clerk.code)),
      await app.call('GET', `${PREFIX}/users/auth/?login=${clerk.login}`),
      await app.call('GET', `${PREFIX}/users/auth/`, { as: clerk }), // other credentials do not count
    ];
    expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403]);
    expect(answers[0]?.body).toMatchObject({ code: 403 });
    expect(new Set(answers.map((answer) => JSON.stringify(refusal(answer)))).size).toBe(1);
  });
});

describe('failed authentication', () => {
  it('is limited: after 10 failures at a login a client gets 429 with Retry-After for it, even with the right code', async () => {
    const limited = await startManagementApp();
    try {
      const wrong = { login: 'admin', code: 'wrong-code-0123456789' };
      for (let failure = 0; failure < 10; failure += 1) {
        const answer =
          failure % 2 === 0
            ? await limited.call('GET', `${PREFIX}/users`, { as: wrong })
            : await limited.call('GET', `${PREFIX}/users/auth/?login=admin&code=${wrong.code}`);
        expect(answer.status).toBe(403);
      }
      for (const answer of [
        await limited.admin('GET', `${PREFIX}/users`),
        await limited.call('GET', `${PREFIX}/users/auth/?login=admin&code=wrong`),
      ]) {
        expect(answer.status).toBe(429);
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(answer.body).toMatchObject({ code: 429 });
      }
    } finally {
      await limited.close();
    }
  });

  it('counts per login: one login’s failures leave another login at the same address free', async () => {
    const limited = await startManagementApp();
    try {
      const other = { login: 'other', code: 'other-code-0123456789' };
      const created = await limited.admin('POST', `${PREFIX}/users`, {
        ...other,
        name: 'Other',
        email: 'other@example.org',
      });
      expect(created.status).toBe(200);
      const guess = 'a-wrong-guess-0123456';
      for (let failure = 0; failure < 10; failure += 1) {
        const answer = await limited.call('GET', `${PREFIX}/users`, {
          as: { login: other.login, code: `${guess}${failure}` },
        });
        expect(answer.status).toBe(403);
      }
      const refused = await limited.call('GET', `${PREFIX}/users`, { as: other });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({ status: 429, code: 429, message: expect.any(String) });
      // The administrator, at the same address, still gets in, and so at the auth endpoint.
      expect((await limited.admin('GET', `${PREFIX}/users`)).status).toBe(200);
      expect((await limited.call('GET', authPath(ADMIN.login, ADMIN.code))).status).toBe(200);
      // No answer repeats a code that was sent.
      for (const code of [guess, other.code, ADMIN.code]) {
        expect(limited.responses.some((body) => body.includes(code))).toBe(false);
      }
    } finally {
      await limited.close();
    }
  });
});
