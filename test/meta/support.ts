import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../src/auth/secret.ts';
import type { Grant } from '../../src/auth/grants.ts';
import { ACCESS_ENTRIES, META_ENTRIES, USERS } from '../../src/db/protocol-records.ts';
import type { Json } from '../../src/json.ts';
import type { MetaEntry } from '../../src/meta/entry.ts';
import type { TestApp } from '../support/app.ts';

export interface TestUser {
  login: string;
  code: string;
  /** `x-appid`/`x-appkey` headers for this user. */
  headers: Record<string, string>;
}

/** A user with these grants, written straight to the database (not through the management protocol). */
export async function createUser(app: TestApp, grants: Grant[]): Promise<TestUser> {
  const login = `user-${randomUUID().slice(0, 8)}`;
  const code = `code-${randomUUID()}`;
  const db = app.testDatabase.client.db(app.database.db.databaseName);
  const userId = randomUUID();
  await db.collection(USERS).insertOne({
    id: userId,
    login,
    name: 'Test User',
    email: `${login}@example.org`,
    code_hash: await hashSecret(code),
  });
  if (grants.length > 0) {
    await db
      .collection(ACCESS_ENTRIES)
      .insertMany(grants.map((grant) => ({ id: randomUUID(), user_id: userId, ...grant })));
  }
  return { login, code, headers: { 'x-appid': login, 'x-appkey': code } };
}

/** Every meta entry stored, read straight from the database, as stored (hidden fields included). */
export async function storedEntries(app: TestApp): Promise<(MetaEntry & Record<string, unknown>)[]> {
  return (await app.database.db
    .collection(META_ENTRIES)
    .find({}, { projection: { _id: 0 } })
    .toArray()) as unknown as (MetaEntry & Record<string, unknown>)[];
}

/** Polls until `check` returns something other than undefined (recording happens after the response). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`nothing turned up within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The stored entry for a call, once the recorder has written it. */
export const entryFor = (app: TestApp, verb: string, path: string) =>
  eventually(async () =>
    (await storedEntries(app)).find((entry) => entry.verb === verb && entry.path === path),
  );

/** A JSON request to the app; the answer with its body parsed. */
export async function call(
  app: TestApp,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: Json; headers: Headers; text: string }> {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Json) : {},
    headers: response.headers,
    text,
  };
}
