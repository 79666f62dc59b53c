/*
 * The management and meta protocols answer their errors alike: problem details with the `code` and
 * `message` of the HSDA error body, and the same words for the same fault.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { call, createUser, type TestUser } from './support.ts';

let app: TestApp;
let user: TestUser;
beforeAll(async () => {
  app = await startTestApp();
  user = await createUser(app, [
    { path: '/management/users*', verb: '*' },
    { path: '/meta*', verb: '*' },
  ]);
});
afterAll(async () => app?.close());

/** What a caller learns from an answer, without the request's own `instance`. */
const answerOf = ({ status, body }: Awaited<ReturnType<typeof call>>) => ({
  status,
  body: { ...(body as Record<string, unknown>), instance: undefined },
});

describe('the management and meta protocols', () => {
  it.each([
    ['per_page=0', "Invalid parameters: 'per_page' must be at least 1."],
    ['page=x', "Invalid parameters: 'page' must be an integer."],
    // Past the safe integers: one fault, not its range's too.
    ['page=99999999999999999999', "Invalid parameters: 'page' must be an integer."],
    ['page=1&page=2', "Invalid parameters: 'page' must be given once."],
  ])('word a malformed list parameter (%s) alike', async (query, message) => {
    const answers = await Promise.all(
      [`/management/users/?${query}`, `/meta/?${query}`].map(async (path) =>
        answerOf(await call(app, 'GET', path, { headers: user.headers })),
      ),
    );
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 400, body: { code: 400, message, detail: message } });
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it('word a PUT naming another id alike', async () => {
    const management = await call(app, 'GET', '/management/users/?per_page=1', { headers: user.headers });
    const userId = (management.body as { contents: { id: string }[] }).contents[0]!.id;
    const entry = await call(app, 'POST', '/meta/', { headers: user.headers, body: {} });
    const entryId = (entry.body as { id: string }).id;
    const answers = [
      answerOf(
        await call(app, 'PUT', `/management/users/${userId}`, {
          headers: user.headers,
          body: { id: 'another-id', login: 'someone', name: 'Someone', email: '' },
        }),
      ),
      answerOf(
        await call(app, 'PUT', `/meta/${entryId}`, { headers: user.headers, body: { id: 'another-id' } }),
      ),
    ];
    const message = "Invalid request body: 'id' must match the id in the path.";
    for (const answer of answers) {
      expect(answer).toMatchObject({
        status: 400,
        body: { code: 400, message, errors: [{ field: 'id', message: 'must match the id in the path' }] },
      });
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it.each([
    ['PATCH', '/management/users/'],
    ['DELETE', '/management/users/'],
    ['PATCH', '/meta/'],
    ['DELETE', '/meta/'],
    ['POST', '/meta/some-id'],
  ])('answer %s %s with 405, Allow, code and message', async (method, path) => {
    const answer = await call(app, method, path, { headers: user.headers });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toMatch(/GET/);
    expect(answer.body).toMatchObject({ status: 405, code: 405, message: expect.any(String) });
  });
});
