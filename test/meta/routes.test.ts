import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { call, createUser, storedEntries, type TestUser } from './support.ts';

let app: TestApp;
let auditor: TestUser;
let reader: TestUser;
beforeAll(async () => {
  app = await startTestApp();
  auditor = await createUser(app, [
    { path: '/meta', verb: '*' },
    { path: '/meta/*', verb: '*' },
  ]);
  reader = await createUser(app, [{ path: '/meta/*', verb: 'GET' }]);
});
afterAll(async () => app?.close());

const create = (body: unknown, user = auditor) =>
  call(app, 'POST', '/meta/', { headers: user.headers, body });

describe('meta entries: create, read, update', () => {
  it('creates an entry with an id, the day as timestamp and the full time as recorded_at', async () => {
    const before = Date.now();
    const created = await create({ appid: 'aggregator', path: '/services', verb: 'GET', status: 'Waiting' });
    expect(created.status).toBe(200);
    const entry = created.body;
    expect(entry).toMatchObject({ appid: 'aggregator', path: '/services', verb: 'GET', status: 'Waiting' });
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(entry.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const recordedAt = Date.parse(entry.recorded_at as string);
    expect(recordedAt).toBeGreaterThanOrEqual(before - 1);
    expect(entry.timestamp).toBe((entry.recorded_at as string).slice(0, 10));
    expect(Object.keys(entry).some((key) => key.startsWith('_'))).toBe(false);
  });

  it('reads and updates an entry at /meta/{id} and /meta/{id}/', async () => {
    const { body: entry } = await create({ path: '/import', status: 'Waiting' });
    for (const path of [`/meta/${entry.id}`, `/meta/${entry.id}/`]) {
      const read = await call(app, 'GET', path, { headers: auditor.headers });
      expect(read.status).toBe(200);
      expect(read.body).toEqual(entry);
    }
    const updated = await call(app, 'PUT', `/meta/${entry.id}`, {
      headers: auditor.headers,
      body: { status: 'Complete', response_body: '{"ok":true}' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...entry, status: 'Complete', response_body: '{"ok":true}' });
    const unchanged = await call(app, 'PUT', `/meta/${entry.id}/`, { headers: auditor.headers, body: {} });
    expect(unchanged.body).toEqual(updated.body);
    const again = await call(app, 'PUT', `/meta/${entry.id}/`, {
      headers: auditor.headers,
      body: { ...updated.body, system: 'other' },
    });
    expect(again.status).toBe(200);
    expect((await call(app, 'GET', `/meta/${entry.id}/`, { headers: auditor.headers })).body).toEqual({
      ...updated.body,
      system: 'other',
    });
  });

  it('answers 404 for an unknown id, with code and message', async () => {
    for (const method of ['GET', 'PUT']) {
      const response = await call(app, method, '/meta/no-such-entry/', {
        headers: auditor.headers,
        ...(method === 'PUT' ? { body: { status: 'Complete' } } : {}),
      });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ status: 404, code: 404, message: expect.any(String) });
    }
  });
});

describe('meta entries: validation', () => {
  it.each([
    [{ status: 'Done' }, 'status'],
    [{ timestamp: '2025-02-30' }, 'timestamp'],
    [{ timestamp: '2025-06-01T10:00:00Z' }, 'timestamp'],
    [{ verb: 42 }, 'verb'],
    [{ id: 'mine' }, 'id'],
    [{ recorded_at: '2025-01-01T00:00:00Z' }, 'recorded_at'],
    [{ colour: 'red' }, 'colour'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400, code: 400 });
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(response.body.message).toContain(field);
  });

  it('says of a day not written as yyyy-mm-dd that alone, and of one that does not exist that alone', async () => {
    for (const [timestamp, message] of [
      ['2025-02', 'must be a date as yyyy-mm-dd'],
      ['2025-02-30', 'is not a real date'],
    ]) {
      const response = await create({ timestamp });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([expect.objectContaining({ field: 'timestamp', message })]);
    }
  });

  it('accepts both statuses of the spec', async () => {
    for (const status of ['Complete', 'Waiting']) expect((await create({ status })).status).toBe(200);
  });

  it('refuses a PUT that would change the id or recorded_at', async () => {
    const { body: entry } = await create({});
    const changes = [{ id: 'other' }, { recorded_at: '2000-01-01T00:00:00.000Z' }];
    for (const change of changes) {
      const response = await call(app, 'PUT', `/meta/${entry.id}/`, {
        headers: auditor.headers,
        body: change,
      });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([expect.objectContaining({ field: Object.keys(change)[0] })]);
    }
  });

  it('refuses malformed JSON with 400 and a non-JSON body with 415', async () => {
    const malformed = await fetch(`${app.url}/meta/`, {
      method: 'POST',
      headers: { ...auditor.headers, 'content-type': 'application/json' },
      body: '{"status": ',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 400, message: expect.any(String) });
    const text = await fetch(`${app.url}/meta/`, {
      method: 'POST',
      headers: { ...auditor.headers, 'content-type': 'text/plain' },
      body: 'status=Complete',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ code: 415, message: expect.any(String) });
    // No body, or the JSON text "", is no entry: a write needs its object.
    for (const body of [undefined, '""']) {
      const empty = await fetch(`${app.url}/meta/`, {
        method: 'POST',
        headers: { ...auditor.headers, 'content-type': 'application/json' },
        body,
      });
      expect(empty.status, String(body)).toBe(400);
    }
  });

  it('redacts secrets inside the JSON texts of an entry before storing it', async () => {
    const secret = 'sekrit-value-1234';
    const { body: entry } = await create({
      request_headers: JSON.stringify({ 'x-appkey': secret, accept: 'application/json' }),
      request_body: JSON.stringify({ login: 'someone', code: secret }),
    });
    expect(JSON.stringify(entry)).not.toContain(secret);
    expect(JSON.parse(entry.request_headers as string)).toEqual({
      'x-appkey': '[redacted]',
      accept: 'application/json',
    });
    expect(JSON.stringify(await storedEntries(app))).not.toContain(secret);
  });
});

describe('meta entries: list', () => {
  it('lists newest first with the core list header, at /meta and /meta/', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await create({ appid: `list-${i}` })).body.id as string);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const path of ['/meta', '/meta/']) {
      const response = await call(app, 'GET', `${path}?per_page=2`, { headers: auditor.headers });
      expect(response.status).toBe(200);
      const total = response.body.total_items as number;
      expect(total).toBeGreaterThanOrEqual(3);
      expect(response.body).toMatchObject({
        total_pages: Math.ceil(total / 2),
        page_number: 1,
        size: 2,
        first_page: true,
        last_page: false,
        empty: false,
      });
      expect(response.body.contents).toHaveLength(2);
    }
    // The recorder's entries of these POSTs are in the list too: look at ours only.
    const all = await call(app, 'GET', '/meta/?per_page=100', { headers: auditor.headers });
    const contents = all.body.contents as { id: string; recorded_at: string }[];
    expect(contents.map((entry) => entry.id).filter((id) => ids.includes(id))).toEqual(ids.toReversed());
    const times = contents.map((entry) => entry.recorded_at);
    expect(times).toEqual(times.toSorted().toReversed());
  });

  it.each(['per_page=101', 'per_page=0', 'page=0', 'page=x'])('refuses %s with 400', async (query) => {
    const response = await call(app, 'GET', `/meta/?${query}`, { headers: auditor.headers });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 400, errors: [{ parameter: query.split('=')[0] }] });
  });

  it('accepts per_page=100', async () => {
    expect((await call(app, 'GET', '/meta/?per_page=100', { headers: auditor.headers })).status).toBe(200);
  });

  it('serves 50 entries a page when not asked for a size', async () => {
    await Promise.all(Array.from({ length: 51 }, (_, at) => create({ appid: `filler-${at}` })));
    const { status, body } = await call(app, 'GET', '/meta/', { headers: auditor.headers });
    expect(status).toBe(200);
    const total = body.total_items as number;
    expect(total).toBeGreaterThan(50);
    expect(body).toMatchObject({ size: 50, total_pages: Math.ceil(total / 50), last_page: false });
  });
});

describe('meta entries: access', () => {
  it('answers 403 without credentials, with wrong ones, and without a grant for the verb', async () => {
    const { body: entry } = await create({});
    const attempts = [
      call(app, 'GET', '/meta/'),
      call(app, 'GET', `/meta/${entry.id}/`, { headers: { ...auditor.headers, 'x-appkey': 'wrong' } }),
      call(app, 'POST', '/meta/', { body: {} }),
      call(app, 'POST', '/meta/', { headers: reader.headers, body: {} }),
      call(app, 'PUT', `/meta/${entry.id}/`, { headers: reader.headers, body: { status: 'Complete' } }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ status: 403, code: 403, message: expect.any(String) });
    }
    expect((await call(app, 'GET', `/meta/${entry.id}/`, { headers: reader.headers })).status).toBe(200);
  });

  it('accepts HTTP Basic credentials too', async () => {
    const basic = `Basic ${Buffer.from(`${auditor.login}:${auditor.code}`).toString('base64')}`;
    expect((await call(app, 'GET', '/meta/', { headers: { authorization: basic } })).status).toBe(200);
  });
});
