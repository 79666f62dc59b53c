import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/auth/authenticate.ts';
import { ACCESS_ENTRIES, USERS } from '../../src/db/protocol-records.ts';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { startScript } from '../support/process.ts';

// `npm run user` end to end, against the test database through MONGODB_URI.
let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await startTestDatabase();
});
afterAll(async () => testDatabase?.close());

async function user(...args: string[]): Promise<{ status: number | string; output: string }> {
  const run = startScript(
    'scripts/user.ts',
    { MONGODB_URI: testDatabase.uri, HSDS_DB_NAME: testDatabase.db.databaseName, LOG_LEVEL: 'warn' },
    args,
  );
  const status = await run.exited;
  return { status, output: run.output() };
}

describe('npm run user', () => {
  it('adds a user with a generated code, printed once, that authenticates', async () => {
    const added = await user('add', 'dana', '--name', 'Dana Scully', '--email', 'dana@example.org');
    expect(added.status).toBe(0);
    const code = /^code: (\S+)$/m.exec(added.output)?.[1] ?? '';
    expect(code).toMatch(/^[\w-]{32}$/);
    expect(await authenticate(testDatabase.db, { login: 'dana', code })).toMatchObject({ login: 'dana' });
    expect(JSON.stringify(await testDatabase.db.collection(USERS).find().toArray())).not.toContain(code);
  });

  it('adds a user with a given code, and refuses a taken login or an invalid field', async () => {
    const code = 'fox-given-code-0123';
    const added = await user(
      'add',
      'fox',
      '--name',
      'Fox Mulder',
      '--email',
      'fox@example.org',
      '--code',
      code,
    );
    expect(added.status).toBe(0);
    expect(added.output).not.toContain(code);
    expect(await authenticate(testDatabase.db, { login: 'fox', code })).toBeDefined();

    const again = await user('add', 'fox', '--name', 'F', '--email', 'f@example.org');
    expect(again).toMatchObject({
      status: 1,
      output: expect.stringContaining('the login fox is already taken'),
    });
    const invalid = await user('add', 'walter', '--name', 'Walter');
    expect(invalid).toMatchObject({ status: 1, output: expect.stringContaining('--email is required') });
  });

  it('grants, lists and revokes', async () => {
    expect((await user('grant', 'fox', '/management/users*', 'get', '--name', 'Reads users')).status).toBe(0);
    expect((await user('grant', 'fox', '/management/users*', 'GET')).status).toBe(0); // already granted
    const entries = testDatabase.db.collection(ACCESS_ENTRIES);
    expect(await entries.find({}, { projection: { _id: 0, id: 0, user_id: 0 } }).toArray()).toEqual([
      { path: '/management/users*', verb: 'GET', name: 'Reads users' },
    ]);

    const listed = await user('list');
    expect(listed.status).toBe(0);
    expect(listed.output).toMatch(/^dana\tDana Scully\tdana@example\.org\t/m);
    expect(listed.output).toMatch(/^fox\t.*\n {2}GET \/management\/users\*\tReads users$/m);

    // A name an earlier release stored with a line break and a terminal escape is listed escaped.
    const users = testDatabase.db.collection(USERS);
    await users.updateOne({ login: 'dana' }, { $set: { name: 'Dana\nforged\tline \u001b[2J' } });
    const escaped = (await user('list')).output;
    expect(escaped).toMatch(/^dana\tDana\\u000aforged\\u0009line \\u001b\[2J\tdana@example\.org\t/m);
    expect(escaped).not.toContain('\u001b');
    await users.updateOne({ login: 'dana' }, { $set: { name: 'Dana Scully' } });

    expect((await user('revoke', 'fox', '/management/users*', 'get')).status).toBe(0);
    expect(await entries.countDocuments()).toBe(0);
    expect((await user('revoke', 'fox', '/management/users*', 'GET')).status).toBe(1);
    expect((await user('grant', 'fox', 'no-slash', 'GET')).output).toContain(
      "the path no-slash must start with '/'",
    );
  });

  it('replaces a code, and removes a user with their grants', async () => {
    const changed = await user('set-code', 'fox');
    expect(changed.status).toBe(0);
    const code = /^code: (\S+)$/m.exec(changed.output)?.[1] ?? '';
    expect(await authenticate(testDatabase.db, { login: 'fox', code })).toBeDefined();
    expect(
      await authenticate(testDatabase.db, { login: 'fox', code: 'fox-given-code-0123' }),
    ).toBeUndefined();

    await user('grant', 'fox', '*', '*');
    expect((await user('remove', 'fox')).status).toBe(0);
    expect(await testDatabase.db.collection(USERS).countDocuments({ login: 'fox' })).toBe(0);
    expect(await testDatabase.db.collection(ACCESS_ENTRIES).countDocuments()).toBe(0);
  });

  it('refuses an unknown login (1) and a malformed command line (2)', async () => {
    expect(await user('remove', 'nobody')).toMatchObject({
      status: 1,
      output: expect.stringContaining('nobody'),
    });
    expect((await user('grant', 'fox')).status).toBe(2);
    expect((await user('frobnicate')).status).toBe(2);
  });
});
