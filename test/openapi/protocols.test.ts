import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportQuery } from '../../src/ingest/http-import.ts';
import { accessEntryListFields } from '../../src/management/access-entries.ts';
import { listParametersSchema, type ListFields } from '../../src/management/list-parameters.ts';
import { userListFields } from '../../src/management/users.ts';
import { pagingParameters } from '../../src/meta/list-query.ts';
import { openApiDocument } from '../../src/openapi/document.ts';
import { ADMIN, startManagementApp, type ManagementApp } from '../management/management-app.ts';
import { DEFAULT_MANAGEMENT_PREFIX as PREFIX, defaultDocument } from './default-document.ts';
import { documentValidator } from './document-validator.ts';
import { dereferenced } from './references.ts';
import { responseSchemaPath } from './response-schema.ts';
import type { Json } from '../../src/json.ts';

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description: string;
  schema: Json & { default?: unknown };
}
interface Operation {
  security?: unknown[];
  parameters?: Parameter[];
  responses: Record<string, unknown>;
}

const document = defaultDocument('http://localhost');
const validate = documentValidator(document);
const paths = document.paths as unknown as Record<string, Record<string, Operation>>;
const METHODS = ['get', 'put', 'post', 'delete'];
const protocolOperations = Object.entries(paths)
  .filter(([path]) => [PREFIX, '/meta', '/import'].some((root) => path.startsWith(root)))
  .flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method]! })),
  );
const queryParameters = (path: string, method: string) =>
  (paths[path]![method]!.parameters ?? []).filter((parameter) => parameter.in === 'query');
const parameterNamed = (path: string, method: string, name: string) =>
  queryParameters(path, method).find((parameter) => parameter.name === name)!;

/**
 * A query text as the documented schema types it (OpenAPI clients and validators read a query value of an
 * integer parameter as a number).
 */
const asDocumented = (schema: object, text: string): unknown =>
  (schema as { type?: unknown }).type === 'integer' && /^-?\d+$/.test(text) ? Number(text) : text;

/** Query texts of every form the parameters take: each one the server accepts must be documented valid. */
const candidates = [
  '1',
  '0',
  '25',
  '100',
  '101',
  '1000000',
  '1000001',
  '-1',
  '2.5',
  'x',
  'login',
  'id',
  'path',
  'asc',
  'desc',
  'DESC',
  'true',
  'false',
  'yes',
  'service',
  'taxonomy',
  'a:b',
  'id:1,login:ana',
  'nope:1',
  'x'.repeat(201),
  ' ',
];

describe('management list parameters', () => {
  const lists: [string, ListFields][] = [
    [`${PREFIX}/users/`, userListFields],
    [`${PREFIX}/services/`, accessEntryListFields],
    [`${PREFIX}/users/auth/`, accessEntryListFields],
  ];

  it.each(lists)('%s documents exactly what list-parameters.ts accepts', (path, fields) => {
    const schema = listParametersSchema(fields);
    const extra = path.endsWith('/auth/') ? ['login', 'code'] : [];
    expect(queryParameters(path, 'get').map((parameter) => parameter.name)).toEqual([
      ...extra,
      ...Object.keys(schema.shape),
    ]);
    const defaults = schema.parse({});
    for (const [name, member] of Object.entries(schema.shape)) {
      const parameter = parameterNamed(path, 'get', name);
      expect(parameter.description, name).toMatch(/\w/);
      if (name in defaults)
        expect(parameter.schema.default, name).toBe(
          asDocumented(parameter.schema, String(defaults[name as keyof typeof defaults])),
        );
      for (const value of candidates) {
        if (member.safeParse(value).success) {
          const at = queryParameters(path, 'get').indexOf(parameter);
          expect(
            validate(
              ['paths', path, 'get', 'parameters', String(at), 'schema'],
              asDocumented(parameter.schema, value),
            ).valid,
            `${name}=${value}`,
          ).toBe(true);
        }
      }
    }
  });

  it('takes the credentials of /users/auth/ as required query parameters, with no security scheme', () => {
    const path = `${PREFIX}/users/auth/`;
    expect(paths[path]!.get!.security).toEqual([]);
    for (const name of ['login', 'code']) expect(parameterNamed(path, 'get', name).required).toBe(true);
  });
});

describe('meta and import parameters', () => {
  it('documents the paging of GET /meta/, accepting what the server accepts', () => {
    expect(queryParameters('/meta/', 'get').map((parameter) => parameter.name)).toEqual(
      Object.keys(pagingParameters),
    );
    Object.entries(pagingParameters).forEach(([name, schema], at) => {
      const documented = queryParameters('/meta/', 'get')[at]!.schema;
      expect(documented.type, name).toBe('integer');
      for (const value of candidates.filter((value) => schema.safeParse(value).success)) {
        expect(
          validate(
            ['paths', '/meta/', 'get', 'parameters', String(at), 'schema'],
            asDocumented(documented, value),
          ).valid,
          `${name}=${value}`,
        ).toBe(true);
      }
    });
    expect(parameterNamed('/meta/', 'get', 'per_page')).toMatchObject({
      description: 'Entries on a page, at most 100.',
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
    });
  });

  it('documents exactly the query of POST /import, with its defaults', () => {
    expect(queryParameters('/import', 'post').map((parameter) => parameter.name)).toEqual(
      Object.keys(ImportQuery.shape),
    );
    for (const name of ['dry_run', 'wait'])
      expect(parameterNamed('/import', 'post', name).schema).toEqual({ type: 'boolean', default: false });
    const type = parameterNamed('/import', 'post', 'type').schema;
    expect(type.enum).toEqual(ImportQuery.shape.type.unwrap().options);
  });
});

describe('the protected operations', () => {
  it('are all tagged, and need credentials but /users/auth/', () => {
    expect(protocolOperations.length).toBe(11 + 2 + 4 + 1);
    for (const { path, method, operation } of protocolOperations) {
      if (path.endsWith('/users/auth/')) continue;
      expect(operation.security, `${method} ${path}`).toEqual([{ appId: [], appKey: [] }, { basic: [] }]);
    }
    expect(document.components.securitySchemes).toMatchObject({
      appId: { type: 'apiKey', in: 'header', name: 'x-appid' },
      appKey: { type: 'apiKey', in: 'header', name: 'x-appkey' },
      basic: { type: 'http', scheme: 'basic' },
    });
  });

  it('declare every success no-store, as the server sends it', () => {
    for (const { path, method, operation } of protocolOperations) {
      const successes = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      expect(successes.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        const headers = (response as { headers?: Record<string, { schema: Json }> }).headers;
        expect(headers?.['Cache-Control']?.schema, `${method} ${path} ${status}`).toEqual({
          type: 'string',
          const: 'no-store',
        });
      }
    }
  });

  it('answer 403 and 500 with {code, message}, 429 with Retry-After', () => {
    for (const { path, method, operation } of protocolOperations) {
      for (const status of ['403', '429', '500']) {
        const response = dereferenced<{ content: Json; headers?: Json }>(
          document,
          operation.responses[status],
        );
        expect(response.content, `${method} ${path} ${status}`).toEqual({
          'application/problem+json': { schema: { $ref: '#/components/schemas/ProtocolProblem' } },
        });
        if (status === '429') expect(response.headers).toHaveProperty('Retry-After');
      }
    }
    const problem = document.components.schemas.ProtocolProblem as { properties: Json };
    expect(Object.keys(problem.properties)).toEqual(
      expect.arrayContaining(['code', 'message', 'status', 'detail']),
    );
  });

  it('are under the configured management prefix', () => {
    const moved = Object.keys(openApiDocument('http://localhost', '/admin/v1').paths);
    expect(moved.filter((path) => path.startsWith('/admin/v1/'))).toHaveLength(7);
    expect(moved.filter((path) => path.startsWith(`${PREFIX}/`))).toEqual([]);
  });
});

describe('real responses of the running app', () => {
  let app: ManagementApp;
  beforeAll(async () => {
    app = await startManagementApp();
  });
  afterAll(async () => app?.close());

  const expectDocumented = (
    path: string,
    method: string,
    status: number,
    body: unknown,
    mediaType = 'application/json',
  ) => {
    const at = responseSchemaPath(document, path, method, status, mediaType);
    expect(validate(at, body).errors, `${method} ${path} ${status}`).toEqual([]);
  };

  it('match the documented schemas of the management protocol', async () => {
    const user = { login: 'ana', name: 'Ana', email: 'ana@example.org', code: 'ana-code-0123456789' };
    const created = await app.admin('POST', `${PREFIX}/users/`, user);
    expect(created.status).toBe(200);
    expectDocumented(`${PREFIX}/users/`, 'post', 200, created.body);
    const entry = await app.admin('POST', `${PREFIX}/services/`, {
      user_id: created.body.id,
      path: '/meta/*',
      verb: 'get',
    });
    expect(entry.status).toBe(200);
    expectDocumented(`${PREFIX}/services/`, 'post', 200, entry.body);

    expectDocumented(`${PREFIX}/users/`, 'get', 200, (await app.admin('GET', `${PREFIX}/users/`)).body);
    expectDocumented(`${PREFIX}/services/`, 'get', 200, (await app.admin('GET', `${PREFIX}/services`)).body);
    const auth = await app.call('GET', `${PREFIX}/users/auth/?login=ana&code=${user.code}`);
    expect(auth.status).toBe(200);
    expectDocumented(`${PREFIX}/users/auth/`, 'get', 200, auth.body);
    const read = await app.admin('GET', `${PREFIX}/users/${created.body.id}/`);
    const replaced = await app.admin('PUT', `${PREFIX}/users/${created.body.id}/`, {
      ...read.body,
      name: 'Ana B',
    });
    expect(replaced.status).toBe(200);
    expectDocumented(`${PREFIX}/users/{user_id}/`, 'put', 200, replaced.body);

    const refused = await app.call('GET', `${PREFIX}/users/`, { as: { login: 'ana', code: user.code } });
    expect(refused.status).toBe(403);
    expectDocumented(`${PREFIX}/users/`, 'get', 403, refused.body, 'application/problem+json');
    const invalid = await app.admin('POST', `${PREFIX}/users/`, { login: 'a b' });
    expect(invalid.status).toBe(400);
    expectDocumented(`${PREFIX}/users/`, 'post', 400, invalid.body, 'application/problem+json');
    const missing = await app.admin('DELETE', `${PREFIX}/services/${randomUUID()}/`);
    expect(missing.status).toBe(404);
    expectDocumented(
      `${PREFIX}/services/{service_id}/`,
      'delete',
      404,
      missing.body,
      'application/problem+json',
    );
  });

  it('match the documented schemas of the meta protocol, of imports and of their sources', async () => {
    const created = await app.admin('POST', '/meta/', { system: 'test', status: 'Waiting' });
    expect(created.status).toBe(200);
    expectDocumented('/meta/', 'post', 200, created.body);
    const updated = await app.admin('PUT', `/meta/${created.body.id}/`, {
      ...created.body,
      status: 'Complete',
    });
    expectDocumented('/meta/{meta_id}/', 'put', 200, updated.body);

    const taxonomy = { id: randomUUID(), name: 'Test', description: 'A test taxonomy.' };
    const report = await app.admin('POST', '/import?type=taxonomy&wait=true', [taxonomy, { id: 'bad' }]);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ inserted: 1, rejected: 1 });
    expectDocumented('/import', 'post', 200, report.body);
    const queued = await app.admin('POST', '/import?type=taxonomy&dry_run=true', taxonomy);
    expect(queued.status).toBe(202);
    expect(queued.headers.get('location')).toBe(`/meta/${queued.body.id}/`);
    expectDocumented('/import', 'post', 202, queued.body);

    const sources = await app.admin('GET', `${PREFIX}/sources/`);
    expect(sources.body.contents).toEqual([
      expect.objectContaining({ name: 'default', records: { taxonomy: 1 } }),
    ]);
    expectDocumented(`${PREFIX}/sources/`, 'get', 200, sources.body);
    const source = await app.admin('GET', `${PREFIX}/sources/default`);
    expectDocumented(`${PREFIX}/sources/{name}/`, 'get', 200, source.body);
    const missing = await app.admin('GET', `${PREFIX}/sources/none`);
    expectDocumented(`${PREFIX}/sources/{name}/`, 'get', 404, missing.body, 'application/problem+json');

    const listed = await app.admin('GET', '/meta/?per_page=100');
    expectDocumented('/meta/', 'get', 200, listed.body);
    expect(listed.body.contents.length).toBeGreaterThan(3); // recorded calls too
    expectDocumented(
      '/meta/{meta_id}/',
      'get',
      200,
      (await app.admin('GET', `/meta/${queued.body.id}`)).body,
    );
  });

  it('match the documented schema of the core protocol refusing (415), not ignoring, a POST body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const response = await fetch(`${app.url}/services`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: 'page=2',
      });
      expect(response.status, type).toBe(415);
      const problem = await response.json();
      expect(problem).toMatchObject({ status: 415, detail: 'The request body must be application/json.' });
      expectDocumented('/services', 'post', 415, problem, 'application/problem+json');
    }
  });

  it('refuse (415) a JSON body labelled with a charset other than UTF-8, on every protocol, storing nothing', async () => {
    const auth = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.code}`).toString('base64')}`;
    // "José" in Windows-1252: read as UTF-8, its é would be stored as U+FFFD.
    const latin1 = Buffer.from(
      '{"login":"jose1","name":"Jos\xe9","email":"","code":"josejosejose12"}',
      'latin1',
    );
    for (const path of [`${PREFIX}/users/`, '/meta/', '/services']) {
      const response = await fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json; charset=windows-1252' },
        body: latin1,
      });
      expect(response.status, path).toBe(415);
      expect(await response.json(), path).toMatchObject({
        detail: 'The request body must be UTF-8; its charset is windows-1252.',
      });
    }
    const { body } = await app.admin('GET', `${PREFIX}/users/?queries=login:jose1`);
    expect(body.contents).toEqual([]);
    // Labelled UTF-8 (in any case) or not labelled, a body is read.
    const response = await fetch(`${app.url}/services`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: '{"per_page": 1}',
    });
    expect(response.status).toBe(200);
  });

  it('records the administrator as the documented User, empty email and all', async () => {
    const { body } = await app.admin('GET', `${PREFIX}/users/?queries=login:${ADMIN.login}`);
    expect(body.contents).toHaveLength(1);
    expectDocumented(`${PREFIX}/users/`, 'get', 200, body);
  });
});
