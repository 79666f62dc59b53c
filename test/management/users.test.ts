import { EJSON } from 'bson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySecret } from '../../src/auth/secret.ts';
import { USERS, type StoredUser } from '../../src/db/protocol-records.ts';
import { ADMIN, PREFIX, startManagementApp, type ManagementApp } from './management-app.ts';

let app: ManagementApp;
beforeAll(async () => {
  app = await startManagementApp();
});
afterAll(async () => app?.close());

/** Every code any user of this file was given: none may come back out, in any form. */
const codes: string[] = [ADMIN.code];
function newUser(login: string, fields: Record<string, unknown> = {}) {
  const code = `${login}-secret-code-${codes.length}`;
  codes.push(code);
  return { login, name: `Name of ${login}`, email: `${login}@example.org`, code, ...fields };
}

const authenticates = async (login: string, code: string) =>
  (await app.call('GET', `${PREFIX}/users/auth/?${new URLSearchParams({ login, code })}`)).status === 200;

describe('users', () => {
  it.each(['', '/'])('are created, read, updated and deleted (trailing slash: %j)', async (slash) => {
    const input = newUser(`crud${slash ? 'slash' : 'plain'}`);
    const created = await app.admin('POST', `${PREFIX}/users${slash}`, input);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      login: input.login,
      name: input.name,
      email: input.email,
      code: '********',
    });
    const path = `${PREFIX}/users/${created.body.id}${slash}`;
    expect((await app.admin('GET', path)).body).toEqual(created.body);

    const list = await app.admin('GET', `${PREFIX}/users${slash}?queries=login:${input.login}`);
    expect(list.body).toMatchObject({ total_items: 1, page_number: 1, contents: [created.body] });

    const renamed = await app.admin('PUT', path, { ...created.body, name: 'Renamed', code: undefined });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created.body, name: 'Renamed' });

    const deleted = await app.admin('DELETE', path);
    expect(deleted).toMatchObject({ status: 200, body: renamed.body });
    expect((await app.admin('GET', path)).status).toBe(404);
    expect((await app.admin('DELETE', path)).status).toBe(404);
    expect((await app.admin('PUT', path, newUser('gone'))).status).toBe(404);
  });

  it('keep a given id', async () => {
    const created = await app.admin('POST', `${PREFIX}/users`, newUser('given-id', { id: 'user-17' }));
    expect(created.body.id).toBe('user-17');
    expect((await app.admin('GET', `${PREFIX}/users/user-17`)).body.login).toBe('given-id');
  });

  it('keep the code when a PUT leaves it out or sends back the redacted value, and rehash a new one', async () => {
    const input = newUser('changer');
    const { body: user } = await app.admin('POST', `${PREFIX}/users`, input);
    const path = `${PREFIX}/users/${user.id}`;
    const hashOf = async () =>
      (await app.database.db.collection<StoredUser>(USERS).findOne({ id: user.id }))?.code_hash;
    const hash = await hashOf();

    expect((await app.admin('PUT', path, { ...user, code: undefined })).status).toBe(200);
    expect((await app.admin('PUT', path, user)).status).toBe(200); // code: '********'
    expect(await hashOf()).toBe(hash);

    const next = newUser('changer').code;
    expect((await app.admin('PUT', path, { ...user, code: next })).status).toBe(200);
    expect(await hashOf()).not.toBe(hash);
    expect(await authenticates('changer', next)).toBe(true);
    expect(await authenticates('changer', input.code)).toBe(false);
  });

  it('take back a user as read, the start-up administrator without an email included', async () => {
    const { body: users } = await app.admin('GET', `${PREFIX}/users?per_page=100`);
    const admin = (users.contents as { login: string; email: string; id: string }[]).find(
      (user) => user.login === 'admin',
    )!;
    expect(admin.email).toBe('');
    expect((await app.admin('PUT', `${PREFIX}/users/${admin.id}`, admin)).status).toBe(200);
    expect((await app.admin('POST', `${PREFIX}/users`, { ...newUser('no-email'), email: '' })).status).toBe(
      200,
    );
  });

  it('have unique logins: 409 on a duplicate, also when two creations race', async () => {
    const first = newUser('taken');
    expect((await app.admin('POST', `${PREFIX}/users`, first)).status).toBe(200);
    const again = await app.admin('POST', `${PREFIX}/users/`, newUser('taken'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 409, errors: [{ field: 'login' }] });

    const { body: other } = await app.admin('POST', `${PREFIX}/users`, newUser('other'));
    const renamed = await app.admin('PUT', `${PREFIX}/users/${other.id}`, { ...other, login: 'taken' });
    expect(renamed.status).toBe(409);

    const racing = await Promise.all(
      [1, 2, 3].map(() => app.admin('POST', `${PREFIX}/users`, newUser('racer'))),
    );
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    expect(await app.database.db.collection(USERS).countDocuments({ login: 'racer' })).toBe(1);
  });

  it('have unique ids: 409 when a given id is taken', async () => {
    const answer = await app.admin('POST', `${PREFIX}/users`, newUser('same-id', { id: 'user-17' }));
    expect(answer).toMatchObject({ status: 409, body: { errors: [{ field: 'id' }] } });
  });

  it.each([
    ['email', { email: undefined }, 'is required'],
    [
      'email',
      { email: 'not-an-address' },
      'must be an email address (at most 254 characters), or empty for none',
    ],
    ['login', { login: 'with:colon' }, 'without spaces or colons'],
    // Passing for `admin`: a Cyrillic а, a zero-width space.
    ['login', { login: '\u0430dmin' }, 'ASCII letters, digits or punctuation'],
    ['login', { login: 'admin\u200b' }, 'ASCII letters, digits or punctuation'],
    ['name', { name: '  ' }, 'must not be empty'],
    ['name', { name: 'Two\nlines' }, 'control characters'],
    ['name', { name: 'Escape \u001b]0;title\u0007' }, 'control characters'],
    ['name', { name: 'Reversed \u202etext' }, 'text direction overrides'],
    ['code', { code: 'short' }, 'at least 12 characters'],
    ['code', { code: 42 }, 'must be a string'],
    ['id', { id: 'has/slash' }, 'letters, digits'],
    ['id', { id: 'auth' }, "must not be 'auth'"],
    ['id', { id: '..' }, "must not be '.' or '..'"],
    ['role', { role: 'admin' }, 'is not a known field'],
  ])('are validated: a 400 names %s', async (field, change, message) => {
    const answer = await app.admin('POST', `${PREFIX}/users`, newUser('invalid', change));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 400,
      errors: [{ field, message: expect.stringContaining(message) }],
    });
    expect(answer.body.detail).toContain(`'${field}'`);
  });

  it('name the first 10 of thousands of unknown fields, and how many more there are', async () => {
    const extra = Object.fromEntries(Array.from({ length: 2_000 }, (_, n) => [`extra${n}`, 1]));
    const answer = await app.admin('POST', `${PREFIX}/users`, newUser('extras', extra));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toHaveLength(10);
    expect(answer.body.errors[0]).toEqual({ field: 'extra0', message: 'is not a known field' });
    expect(answer.body.detail).toMatch(/; and 1990 more\.$/);
  });

  it('refuse a body that is not an object, and a PUT whose id is not the path’s', async () => {
    expect((await app.admin('POST', `${PREFIX}/users`, ['a'])).body).toMatchObject({
      status: 400,
      detail: "Invalid request body: '$' must be a JSON object.",
      errors: [{ field: '$', message: 'must be a JSON object' }],
    });
    const { body: user } = await app.admin('POST', `${PREFIX}/users`, newUser('mismatch'));
    const answer = await app.admin('PUT', `${PREFIX}/users/${user.id}`, { ...user, id: 'another' });
    expect(answer).toMatchObject({ status: 400, body: { errors: [{ field: 'id' }] } });
  });

  it('keep a name in any script as sent, and refuse a body that is not UTF-8 (400 naming the byte)', async () => {
    const input = newUser('unicode', { name: 'Zoë Ångström 李 😀' });
    const created = await app.admin('POST', `${PREFIX}/users`, input);
    expect(created.body.name).toBe(input.name);
    expect((await app.admin('GET', `${PREFIX}/users/${created.body.id}`)).body.name).toBe(input.name);

    const send = (body: Buffer) =>
      fetch(`${app.url}${PREFIX}/users`, {
        method: 'POST',
        headers: { 'x-appid': ADMIN.login, 'x-appkey': ADMIN.code, 'content-type': 'application/json' },
        body,
      });
    // "Zoë" in Latin-1: its ë (0xEB) is at byte 28.
    const { code } = newUser('latin1');
    const latin1 = Buffer.from(
      `{"login":"latin1","name":"Zo\u00eb","email":"latin1@example.org","code":"${code}"}`,
      'latin1',
    );
    const refused = await send(latin1);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const detail = async (response: Response) => ((await response.json()) as { detail: string }).detail;
    expect(await detail(refused)).toBe('The request body is not UTF-8: invalid UTF-8 at byte 28.');
    expect((await app.admin('GET', `${PREFIX}/users?queries=login:latin1`)).body.total_items).toBe(0);

    const utf8 = Buffer.from(JSON.stringify(newUser('marked')));
    const withMark = await send(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]));
    expect(withMark.status).toBe(400);
    expect(await detail(withMark)).toMatch(/^The request body starts with a byte order mark/);

    // Escaped in ASCII JSON: a pair is a character, one alone no text at all.
    const escaped = (name: string) =>
      send(Buffer.from(JSON.stringify(newUser(`escaped${codes.length}`)).replace('"Name of', `"${name}`)));
    const paired = await escaped('\\ud83d\\ude00');
    expect(paired.status).toBe(200);
    expect(((await paired.json()) as { name: string }).name).toMatch(/^😀 escaped/);
    const alone = await escaped('\\ud800');
    expect(alone.status).toBe(400);
    expect(await detail(alone)).toMatch(/^The request body holds an unpaired surrogate/);
  });

  it('never give their code back, log it, or store it in clear', async () => {
    const input = newUser('secretive');
    const { body: user } = await app.admin('POST', `${PREFIX}/users`, input);
    expect(await authenticates('secretive', input.code)).toBe(true);
    await app.call('GET', `${PREFIX}/users/auth?login=secretive&code=${input.code}x`);
    await app.call('GET', `${PREFIX}/users`, {
      as: { login: 'secretive', code: input.code, scheme: 'basic' },
    });
    await app.admin('POST', `${PREFIX}/users`, { ...input, email: 'bad' }); // a 400 on a body with a code

    const stored = await app.database.db
      .collection(USERS)
      .findOne({ id: user.id }, { projection: { _id: 0 } });
    expect(Object.keys(stored ?? {}).sort()).toEqual(['code_hash', 'email', 'id', 'login', 'name']);
    expect(await verifySecret(input.code, String(stored?.code_hash))).toBe(true);

    const everything = [
      ...app.responses,
      ...app.logs.map((line) => JSON.stringify(line)),
      ...(await everyStoredDocument()),
    ].join('\n');
    expect(app.responses.length).toBeGreaterThan(20);
    expect(app.logs.length).toBeGreaterThan(20);
    for (const code of codes) expect(everything).not.toContain(code);
  });
});

/** Every document of every collection of the test database, as extended JSON. */
async function everyStoredDocument(): Promise<string[]> {
  const { db } = app.database;
  const documents: string[] = [];
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    for (const document of await db.collection(name).find().toArray())
      documents.push(EJSON.stringify(document));
  }
  return documents;
}
