import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREFIX, startManagementApp, type ManagementApp } from './management-app.ts';

let app: ManagementApp;
const people = [
  { login: 'ada', name: 'Ada Lovelace', email: 'ada@example.org' },
  { login: 'alan', name: 'Alan Turing', email: 'alan@example.net' },
  { login: 'grace', name: 'Grace Hopper', email: 'grace@example.org' },
  { login: 'edsger', name: 'Edsger Dijkstra', email: 'edsger@example.net' },
  { login: 'dot.star', name: 'Barbara Liskov', email: 'barbara@example.org' },
];
let adaId: string;

beforeAll(async () => {
  app = await startManagementApp();
  for (const person of people) {
    const { body } = await app.admin('POST', `${PREFIX}/users`, {
      ...person,
      code: `${person.login}-code-01234`,
    });
    if (person.login === 'ada') adaId = body.id;
  }
  for (const [path, verb] of [
    ['/meta*', 'GET'],
    ['/meta/', 'POST'],
    ['/import', 'POST'],
  ]) {
    await app.admin('POST', `${PREFIX}/services`, {
      user_id: adaId,
      path,
      verb,
      name: `ada ${verb} ${path}`,
    });
  }
});
afterAll(async () => app?.close());

const list = async (path: string, query: Record<string, string>) => {
  const answer = await app.admin('GET', `${PREFIX}${path}?${new URLSearchParams(query)}`);
  return { ...answer, logins: (answer.body.contents ?? []).map((user: { login: string }) => user.login) };
};

describe('management lists', () => {
  it('page with the core list header; 25 by default, sorted by login', async () => {
    const all = await list('/users', {});
    expect(all.body).toMatchObject({ total_items: 6, total_pages: 1, page_number: 1, size: 6, empty: false });
    expect(all.logins).toEqual(['ada', 'admin', 'alan', 'dot.star', 'edsger', 'grace']);

    const second = await list('/users/', { per_page: '4', page: '2' });
    expect(second.body).toMatchObject({ total_items: 6, total_pages: 2, page_number: 2, size: 2 });
    expect(second.body).toMatchObject({ first_page: false, last_page: true });
    expect(second.logins).toEqual(['edsger', 'grace']);
  });

  it('sort by a listed field, either way', async () => {
    expect((await list('/users', { sortby: 'name', order: 'desc' })).logins).toEqual([
      'grace',
      'edsger',
      'dot.star',
      'alan',
      'admin', // Administrator
      'ada',
    ]);
    expect((await list('/users', { sortby: 'email' })).logins[0]).toBe('admin'); // its email is empty
  });

  it('search users’ login, name and email for `query`, case-insensitively and literally', async () => {
    expect((await list('/users', { query: 'EXAMPLE.NET' })).logins).toEqual(['alan', 'edsger']);
    expect((await list('/users', { query: 'hop' })).logins).toEqual(['grace']);
    expect((await list('/users', { query: '.' })).logins).toEqual([
      'ada',
      'alan',
      'dot.star',
      'edsger',
      'grace',
    ]);
    expect((await list('/users', { query: 'dot.s' })).logins).toEqual(['dot.star']);
    expect((await list('/users', { query: '.*' })).logins).toEqual([]);
    expect((await list('/users', { query: 'a|g' })).logins).toEqual([]);
  });

  it('filter exactly on `queries` fields, all of them', async () => {
    expect((await list('/users', { queries: 'login:alan' })).logins).toEqual(['alan']);
    expect((await list('/users', { queries: 'email:alan@example.net, name:Alan Turing' })).logins).toEqual([
      'alan',
    ]);
    expect((await list('/users', { queries: 'login:alan,name:Ada Lovelace' })).logins).toEqual([]);
    expect((await list('/users', { queries: 'login:al' })).logins).toEqual([]);
    const entries = await list('/services', { queries: `user_id:${adaId},verb:POST`, sortby: 'path' });
    expect(entries.body.contents.map((entry: { path: string }) => entry.path)).toEqual(['/import', '/meta/']);
  });

  it('take `\\,` in a `queries` value as a comma and `\\\\` as a backslash', async () => {
    const created = await Promise.all(
      [
        { login: 'comma', name: 'Lovelace, Ada' },
        { login: 'slash', name: 'C:\\dir\\, x' }, // C:\dir\, x
      ].map(async (user) => {
        const { body } = await app.admin('POST', `${PREFIX}/users`, {
          ...user,
          email: '',
          code: `${user.login}-code-01234`,
        });
        return body.id as string;
      }),
    );
    try {
      expect((await list('/users', { queries: 'name:Lovelace\\, Ada' })).logins).toEqual(['comma']);
      expect((await list('/users', { queries: 'login:comma, name:Lovelace\\, Ada' })).logins).toEqual([
        'comma',
      ]);
      // Unescaped, the comma separates pairs: "Ada" is no field:value pair.
      expect((await list('/users', { queries: 'name:Lovelace, Ada' })).status).toBe(400);
      // C:\dir\\\, x: the first backslash is itself, then an escaped backslash and an escaped comma.
      expect((await list('/users', { queries: 'name:C:\\dir\\\\\\, x,login:slash' })).logins).toEqual([
        'slash',
      ]);
      // An escaped backslash before a comma leaves the comma separating: name "C:\dir\", then " x".
      expect((await list('/users', { queries: 'name:C:\\dir\\\\, x' })).status).toBe(400);
    } finally {
      for (const id of created) await app.admin('DELETE', `${PREFIX}/users/${id}`);
    }
  });

  it('search access entries’ name, path and verb for `query`', async () => {
    const found = await list('/services', { query: 'meta' });
    expect(found.body.total_items).toBe(2);
    expect((await list('/services', { query: '*', sortby: 'user_id' })).body.total_items).toBe(2); // /meta* and admin's *
  });

  it.each([
    ['per_page', { per_page: '101' }, 'at most 100'],
    ['per_page', { per_page: '0' }, 'at least 1'],
    ['page', { page: 'two' }, 'must be an integer'],
    ['sortby', { sortby: 'code' }, 'must be one of login, name, email, id'],
    ['order', { order: 'up' }, "'asc' or 'desc'"],
    ['queries', { queries: 'code:x' }, 'only the fields id, login, name, email'],
    ['queries', { queries: 'login' }, 'with a value'],
  ])('answer 400 naming %s when it is invalid', async (parameter, query, message) => {
    const answer = await list('/users', query);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 400,
      errors: [{ parameter, message: expect.stringContaining(message) }],
    });
  });

  it('take at most 100 a page, and a parameter once', async () => {
    expect((await list('/services', { per_page: '100' })).status).toBe(200);
    const twice = await app.admin('GET', `${PREFIX}/users?page=1&page=2`);
    expect(twice).toMatchObject({
      status: 400,
      body: { errors: [{ parameter: 'page', message: 'must be given once' }] },
    });
  });
});
