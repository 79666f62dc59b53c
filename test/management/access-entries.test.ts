import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_ENTRIES } from '../../src/db/protocol-records.ts';
import { PREFIX, startManagementApp, type ManagementApp } from './management-app.ts';

let app: ManagementApp;
let userId: string;

beforeAll(async () => {
  app = await startManagementApp();
  const user = { login: 'grantee', name: 'Grantee', email: 'grantee@example.org', code: 'grantee-code-0123' };
  userId = (await app.admin('POST', `${PREFIX}/users`, user)).body.id;
});
afterAll(async () => app?.close());

describe('access entries (the management protocol’s services)', () => {
  it.each(['', '/'])('are created, read, updated and deleted (trailing slash: %j)', async (slash) => {
    const input = { user_id: userId, name: 'Reading the meta log', path: '/meta*', verb: 'get' };
    const created = await app.admin('POST', `${PREFIX}/services${slash}`, input);
    expect(created).toMatchObject({
      status: 200,
      body: { ...input, verb: 'GET', id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
    const path = `${PREFIX}/services/${created.body.id}${slash}`;
    expect((await app.admin('GET', path)).body).toEqual(created.body);

    // A PUT replaces the entry: the name it leaves out is gone.
    const replaced = await app.admin('PUT', path, { user_id: userId, path: `${PREFIX}/users`, verb: '*' });
    expect(replaced).toMatchObject({ status: 200 });
    expect(replaced.body).toEqual({
      id: created.body.id,
      user_id: userId,
      path: `${PREFIX}/users`,
      verb: '*',
    });

    expect((await app.admin('DELETE', path)).body).toEqual(replaced.body);
    expect((await app.admin('GET', path)).status).toBe(404);
    expect((await app.admin('PUT', path, { user_id: userId, path: '/x', verb: 'GET' })).status).toBe(404);
  });

  it('keep a given id, unique', async () => {
    const input = { id: 'entry-1', user_id: userId, path: '/a', verb: 'GET' };
    expect((await app.admin('POST', `${PREFIX}/services`, input)).body.id).toBe('entry-1');
    expect((await app.admin('POST', `${PREFIX}/services`, input)).status).toBe(409);
  });

  it.each([
    ['user_id', { user_id: 'no-such-user' }, 'names no user'],
    ['user_id', { user_id: undefined }, 'is required'],
    ['path', { path: 'users' }, "must start with '/'"],
    ['path', { path: '/a*b' }, "'*' only at the end"],
    ['verb', { verb: 'FETCH' }, 'must be one of'],
    ['name', { name: '' }, 'must not be empty'],
    ['extra', { extra: true }, 'is not a known field'],
  ])('are validated: a 400 names %s', async (field, change, message) => {
    const answer = await app.admin('POST', `${PREFIX}/services`, {
      user_id: userId,
      path: '/a',
      verb: 'GET',
      ...change,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 400,
      errors: [{ field, message: expect.stringContaining(message) }],
    });
  });

  it('go when their user is deleted', async () => {
    const user = { login: 'leaver', name: 'Leaver', email: 'leaver@example.org', code: 'leaver-code-0123' };
    const leaver = (await app.admin('POST', `${PREFIX}/users`, user)).body.id as string;
    for (const path of ['/a', '/b'])
      await app.admin('POST', `${PREFIX}/services`, { user_id: leaver, path, verb: 'GET' });
    const entries = app.database.db.collection(ACCESS_ENTRIES);
    expect(await entries.countDocuments({ user_id: leaver })).toBe(2);
    expect((await app.admin('DELETE', `${PREFIX}/users/${leaver}`)).status).toBe(200);
    expect(await entries.countDocuments({ user_id: leaver })).toBe(0);
  });

  it('left behind for an id do not pass to a new user given that id', async () => {
    const entries = app.database.db.collection(ACCESS_ENTRIES);
    await entries.insertOne({ id: 'stale', user_id: 'reused-id', path: '*', verb: '*' });
    const user = {
      id: 'reused-id',
      login: 'newcomer',
      name: 'N',
      email: 'n@example.org',
      code: 'newcomer-code-0123',
    };
    expect((await app.admin('POST', `${PREFIX}/users`, user)).status).toBe(200);
    expect(await entries.countDocuments({ user_id: 'reused-id' })).toBe(0);
  });
});
