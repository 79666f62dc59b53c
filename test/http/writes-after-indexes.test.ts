import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, type TestUser } from '../meta/support.ts';

let app: TestApp;
let admin: TestUser;
let indexed = false;
beforeAll(async () => {
  app = await startTestApp({}, { indexed: () => indexed });
  admin = await createUser(app, [{ path: '*', verb: '*' }]);
});
afterAll(async () => app?.close());

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${app.url}${path}`, {
    method,
    headers: { ...admin.headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const newUser = { login: 'bea', name: 'Bea', email: 'bea@example.org', code: 'a-long-enough-code' };

describe('until the indexes are made', () => {
  it('refuses writes to the management and meta protocols and bulk loads with 503 and Retry-After', async () => {
    for (const [method, path, body] of [
      ['POST', '/management/users', newUser],
      ['POST', '/META/', { path: '/x' }],
      ['POST', '/import?wait=true', []],
    ] as const) {
      const response = await send(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({
        status: 503,
        code: 503,
        message: 'The database is still being prepared; retry shortly.',
      });
    }
    expect(await app.database.db.collection('management.users').countDocuments({ login: 'bea' })).toBe(0);
  });

  it('refuses every kind of write, and leaves an unknown method to the router (405)', async () => {
    const users = (await (await send('GET', '/management/users')).json()) as { contents: { id: string }[] };
    const id = users.contents[0]!.id;
    for (const method of ['PUT', 'DELETE'])
      expect((await send(method, `/management/users/${id}`, newUser)).status, method).toBe(503);
    expect((await send('PATCH', '/management/users')).status).toBe(405);
  });

  it("serves reads meanwhile, the core protocol's POST lists included", async () => {
    expect((await send('GET', '/management/users')).status).toBe(200);
    expect((await send('GET', '/meta/')).status).toBe(200);
    expect((await send('POST', '/services', { per_page: 5 })).status).toBe(200);
  });

  it('takes writes once they are', async () => {
    indexed = true;
    expect((await send('POST', '/management/users', newUser)).status).toBe(200);
  });
});
