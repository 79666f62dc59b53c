import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META_ENTRIES } from '../../src/db/protocol-records.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { call, createUser, entryFor, eventually, storedEntries, type TestUser } from './support.ts';

const BODY_LIMIT = 300;
let app: TestApp;
/** The same server with core reads recorded. */
let readsApp: TestApp;
let admin: TestUser;
beforeAll(async () => {
  [app, readsApp] = await Promise.all([
    startTestApp(),
    startTestApp({ HSDS_META_LOG_READS: 'true', HSDS_META_BODY_LIMIT_BYTES: String(BODY_LIMIT) }),
  ]);
  admin = await createUser(app, [{ path: '*', verb: '*' }]);
});
afterAll(async () => Promise.all([app?.close(), readsApp?.close()]));

/** Waits until the recorder has written everything it was given (a marker call is recorded last). */
async function settled(target: TestApp): Promise<void> {
  const marker = `/meta/settle-${randomUUID()}`;
  await call(target, 'PUT', marker, { body: {} });
  await entryFor(target, 'PUT', marker);
}

describe('what is recorded', () => {
  it('records a management call', async () => {
    const path = '/management/users/';
    const response = await call(app, 'GET', path, { headers: admin.headers });
    expect(response.status, 'GET /management/users/ must exist for this test to mean anything').not.toBe(404);
    const entry = await entryFor(app, 'GET', path);
    expect(entry).toMatchObject({
      appid: admin.login,
      system: 'hsds-api',
      status: 'Complete',
      request_parameters: '{}',
    });
    expect(entry.timestamp).toBe(entry.recorded_at.slice(0, 10));
    // The body the caller got, with any member named like a secret redacted.
    const ids = (body: { contents: { id: string }[] }) => body.contents.map((user) => user.id);
    expect(ids(JSON.parse(entry.response_body!))).toEqual(ids(response.body as never));
    expect(entry.response_body).not.toMatch(/"code":"(?!\[redacted\])/);
  });

  it('records meta writes, refused ones too, but not meta reads', async () => {
    const created = await call(app, 'POST', '/meta/', { headers: admin.headers, body: { appid: 'someone' } });
    const entry = await entryFor(app, 'POST', '/meta/');
    expect(JSON.parse(entry.request_body!)).toEqual({ appid: 'someone' });
    expect(JSON.parse(entry.response_body!)).toEqual(created.body);

    await call(app, 'GET', `/meta/${created.body.id}/`, { headers: admin.headers });
    await call(app, 'GET', '/meta/', { headers: admin.headers });
    const refusedPath = `/meta/${created.body.id}/`;
    await call(app, 'PUT', refusedPath, {
      headers: { 'x-appid': 'intruder', 'x-appkey': 'guess' },
      body: {},
    });
    expect(await entryFor(app, 'PUT', refusedPath)).toMatchObject({ appid: 'intruder' });
    await settled(app);
    const reads = (await storedEntries(app)).filter(
      (stored) => stored.verb === 'GET' && stored.path?.startsWith('/meta'),
    );
    expect(reads).toEqual([]);
  });

  it('records an import', async () => {
    const response = await call(app, 'POST', '/import?wait=true', { headers: admin.headers, body: [] });
    expect(response.status).toBe(200);
    const entry = await entryFor(app, 'POST', '/import');
    expect(entry).toMatchObject({ status: 'Complete', request_body: '[body not recorded]' });
    expect(JSON.parse(entry.response_body!)).toMatchObject({ inserted: 0 });
  });

  it('records core reads only when HSDS_META_LOG_READS is on', async () => {
    for (const target of [app, readsApp]) {
      expect((await call(target, 'GET', '/services?per_page=1')).status).toBe(200);
      await call(target, 'GET', '/healthz');
    }
    expect(await entryFor(readsApp, 'GET', '/services')).toMatchObject({
      request_parameters: '{"per_page":"1"}',
      status: 'Complete',
    });
    await Promise.all([settled(app), settled(readsApp)]);
    expect((await storedEntries(app)).filter((entry) => entry.path === '/services')).toEqual([]);
    expect((await storedEntries(readsApp)).filter((entry) => entry.path === '/healthz')).toEqual([]);
  });

  it('records a streamed response as [stream], and cuts long bodies at the limit', async () => {
    await call(readsApp, 'GET', '/services?format=ndjson');
    expect(await entryFor(readsApp, 'GET', '/services')).toBeDefined();
    const streamed = await eventually(async () =>
      (await storedEntries(readsApp)).find((entry) => entry.request_parameters?.includes('ndjson')),
    );
    expect(streamed.response_body).toBe('[stream]');
    await call(readsApp, 'GET', '/');
    const root = await entryFor(readsApp, 'GET', '/');
    expect(root.response_body).toMatch(/^\{"version":"3.0"/);
    await call(readsApp, 'POST', '/services', { body: { padding: 'x'.repeat(2 * BODY_LIMIT) } });
    const long = await entryFor(readsApp, 'POST', '/services');
    expect(long.request_body).toMatch(/…\[truncated\]$/);
    expect(Buffer.byteLength(long.request_body!.replace('…[truncated]', ''))).toBeLessThanOrEqual(BODY_LIMIT);
  });
});

describe('secrets', () => {
  it('keeps no code in any meta entry, response or log line', async () => {
    const victim = await createUser(app, [{ path: '*', verb: '*' }]);
    const newCode = `new-user-code-${randomUUID()}`;
    const basic = `Basic ${Buffer.from(`${victim.login}:${victim.code}`).toString('base64')}`;
    const responses = await Promise.all([
      call(app, 'GET', `/management/users/auth/?login=${victim.login}&code=${victim.code}`),
      call(app, 'POST', '/management/users/', {
        headers: victim.headers,
        body: { login: `new-${randomUUID()}`, name: 'New', email: 'new@example.org', code: newCode },
      }),
      call(app, 'POST', '/meta/', {
        headers: { authorization: basic, cookie: `session=${victim.code}` },
        body: {},
      }),
      call(app, 'PUT', '/meta/nothing/', {
        headers: { 'x-appid': victim.login, 'x-appkey': `${victim.code}x` },
      }),
      call(app, 'POST', '/import?wait=true', { headers: victim.headers, body: [] }),
    ]);
    const refused = await entryFor(app, 'PUT', '/meta/nothing/');
    expect(refused.appid).toBe(victim.login);
    await settled(app);

    const entries = await storedEntries(app);
    const mine = entries.filter((entry) => entry.appid === victim.login);
    expect(mine.length).toBeGreaterThanOrEqual(5);
    const headers = JSON.parse(mine.find((entry) => entry.path === '/meta/')!.request_headers!);
    expect(headers).toMatchObject({ authorization: '[redacted]', cookie: '[redacted]' });
    const auth = mine.find((entry) => entry.path === '/management/users/auth/');
    expect(JSON.parse(auth!.request_parameters!)).toEqual({ login: victim.login, code: '[redacted]' });
    const creation = mine.find((entry) => entry.path === '/management/users/' && entry.verb === 'POST');
    expect(JSON.parse(creation!.request_body!)).toMatchObject({ code: '[redacted]' });

    for (const secret of [
      victim.code,
      newCode,
      Buffer.from(`${victim.login}:${victim.code}`).toString('base64'),
    ]) {
      expect(JSON.stringify(entries)).not.toContain(secret);
      expect(JSON.stringify(app.logs)).not.toContain(secret);
      for (const response of responses) expect(response.text).not.toContain(secret);
    }
  });
});

describe('when recording fails', () => {
  it('still answers the call, and logs the failure without details of the call', async () => {
    const target = await startTestApp({ HSDS_META_LOG_READS: 'true' });
    try {
      // Every document written to the collection must now have GeoJSON in `system`, which none has: the
      // database refuses every meta entry (as a validator would; the stand-in has no validators).
      await target.database.db.collection(META_ENTRIES).createIndex({ system: '2dsphere' });
      const user = await createUser(target, [{ path: '*', verb: '*' }]);
      const secretQuery = `probe-${randomUUID()}`;
      const read = await call(target, 'GET', `/services?search=${secretQuery}`);
      expect(read.status).toBe(200);
      const imported = await call(target, 'POST', '/import?wait=true', { headers: user.headers, body: [] });
      expect(imported.status).toBe(200);
      const failures = await eventually(async () => {
        const lines = target.logs.filter((line) => line.msg === 'meta entries could not be recorded');
        return lines.length > 0 ? lines : undefined;
      });
      expect(failures[0]).toMatchObject({
        level: 50,
        errorName: expect.any(String),
        errorCode: expect.any(Number),
      });
      const logged = JSON.stringify(target.logs);
      expect(logged).not.toContain(secretQuery);
      expect(logged).not.toContain(user.code);
      expect(await storedEntries(target)).toEqual([]);
      // The server keeps serving after the failures.
      expect((await call(target, 'GET', '/services')).status).toBe(200);
    } finally {
      await target.close();
    }
  });
});

describe('what refused and pathological calls leave in the log', () => {
  it('records a call refused by access control without its headers or body', async () => {
    const padding = 'p'.repeat(8000);
    const refused = await call(app, 'POST', '/management/users/?note=refused-call', {
      headers: { 'x-pad': padding, 'x-appid': 'nobody', 'x-appkey': 'wrong-code-000' },
      body: { login: 'intruder', padding },
    });
    expect(refused.status).toBe(403);
    const entry = await eventually(async () =>
      (await storedEntries(app)).find((stored) => stored.request_parameters?.includes('refused-call')),
    );
    expect(entry).toMatchObject({ appid: 'nobody', verb: 'POST', path: '/management/users/' });
    expect(entry.request_headers).toBe('[not recorded for an unauthenticated call]');
    expect(entry.request_body).toBe('[not recorded for an unauthenticated call]');
    expect(JSON.stringify(entry)).not.toContain(padding.slice(0, 100));
  });

  it('records briefly any call to a protected path made without authenticating, whatever its answer', async () => {
    const long = 'q'.repeat(7000);
    const calls = [
      { method: 'GET', path: `/management/nothing-here-${long}`, status: 404 },
      { method: 'PATCH', path: '/management/users', status: 405 },
      { method: 'DELETE', path: `/import/${long}`, status: 404 },
    ];
    for (const { method, path, status } of calls) {
      const response = await call(app, method, `${path}?marker=brief-${status}-${method}`, {
        headers: { 'x-pad': long },
      });
      expect(response.status, `${method} ${path.slice(0, 40)}`).toBe(status);
      const entry = await eventually(async () =>
        (await storedEntries(app)).find((stored) =>
          stored.request_parameters?.includes(`brief-${status}-${method}`),
        ),
      );
      expect(entry.request_headers).toBe('[not recorded for an unauthenticated call]');
      // The path and the answer (a problem naming the path) are cut short too.
      expect(JSON.stringify(entry).length, `${method} ${path.slice(0, 40)}`).toBeLessThan(3_000);
    }
  });

  it('names in the meta entry of the auth endpoint the user who authenticated, not a login claimed', async () => {
    const user = await createUser(app, []);
    const response = await call(app, 'GET', `/management/users/auth/?login=${user.login}&code=${user.code}`, {
      headers: { 'x-appid': 'admin', 'x-appkey': 'not-the-admin-code' },
    });
    expect(response.status).toBe(200);
    const entry = await eventually(async () =>
      (await storedEntries(app)).find(
        (stored) =>
          stored.path === '/management/users/auth/' && stored.request_parameters?.includes(user.login),
      ),
    );
    expect(entry.appid).toBe(user.login);
  });

  it('records a deeply nested body, cut, rather than losing the entry', async () => {
    const response = await fetch(`${app.url}/meta/`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: `${'['.repeat(100_000)}"bottom"${']'.repeat(100_000)}`,
    });
    expect(response.status).toBe(400);
    const entry = await eventually(async () =>
      (await storedEntries(app)).find(
        (stored) => stored.verb === 'POST' && stored.request_body?.includes('[nested too deep]'),
      ),
    );
    expect(entry.path).toBe('/meta/');
  });
});
