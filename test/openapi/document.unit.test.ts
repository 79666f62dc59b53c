/*
 * No copy of the OpenAPI 3.1 meta-schema ships in an installed package, so the document's structure is
 * checked here against the rules of the specification that a generator can get wrong: references,
 * path templates and their parameters, operations, responses, media types and JSON Schema dialect.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { appRoutes } from './app-routes.ts';
import { defaultDocument } from './default-document.ts';
import { dereferenced, refsIn, resolveRef } from './references.ts';
import type { Json } from '../../src/json.ts';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}
interface Operation {
  operationId: string;
  tags: string[];
  parameters?: unknown[];
  requestBody?: { content: Record<string, { schema?: Json }> };
  responses: Record<string, unknown>;
}

const document = defaultDocument('https://api.example.org/hsds');

/** Every route answers with or without a trailing slash; the document writes the form the spec does. */
const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, operation]) => ({ path, method, operation: operation as Operation })),
);

/** Every object anywhere in the document that may be a schema (any object with a `type`). */
function schemasIn(value: unknown): Json[] {
  if (value === null || typeof value !== 'object') return [];
  const nested = Object.values(value).flatMap(schemasIn);
  return 'type' in value ? [value as Json, ...nested] : nested;
}

const parametersOf = (operation: Operation) =>
  (operation.parameters ?? []).map((parameter) => dereferenced<Parameter>(document, parameter));
const responsesOf = (operation: Operation) =>
  Object.entries(operation.responses).map(([status, response]) => ({
    status,
    response: dereferenced<{ description?: unknown; content?: Record<string, { schema?: Json }> }>(
      document,
      response,
    ),
  }));

describe('the generated OpenAPI document', () => {
  it('says of every response that it carries X-Request-Id', () => {
    const paths = document.paths as Record<string, Record<string, { responses?: Record<string, object> }>>;
    const responses = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        Object.entries(operation.responses ?? {}).map(([status, response]) => ({
          at: `${method} ${path} ${status}`,
          response: dereferenced<{ headers?: Record<string, unknown> }>(document, response),
        })),
      ),
    );
    expect(responses.length).toBeGreaterThan(100);
    for (const { at, response } of responses)
      expect(Object.keys(response.headers ?? {}), at).toContain('X-Request-Id');
  });

  it('is an OpenAPI 3.1 document for the public base URL, linking the profile', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(document.info.description).toContain('https://api.example.org/hsds/profile');
    expect(document.servers).toEqual([{ url: 'https://api.example.org/hsds' }]);
  });

  it('stays small: shared schemas are components, referred to', () => {
    expect(JSON.stringify(document).length).toBeLessThan(300_000);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'Service',
        'Organization',
        'ServiceAtLocation',
        'Location',
        'Phone',
        'Schedule',
      ]),
    );
  });

  it('resolves every $ref within the document', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(100);
    const dangling = refs.filter(({ ref }) => resolveRef(document, ref) === undefined);
    expect(dangling).toEqual([]);
  });

  it('names components as OpenAPI allows', () => {
    for (const group of Object.values(document.components)) {
      for (const name of Object.keys(group)) expect(name).toMatch(/^[a-zA-Z0-9._-]+$/);
    }
  });

  it('writes every schema in valid JSON Schema 2020-12 (the OpenAPI 3.1 dialect), no standalone $id or $schema', () => {
    const ajv = new Ajv2020({ strict: false });
    const schemas = [
      ...Object.values(document.components.schemas),
      ...operations.flatMap(({ operation }) => [
        ...parametersOf(operation).map((parameter) => parameter.schema),
        ...Object.values(operation.requestBody?.content ?? {}).map((media) => media.schema),
        ...responsesOf(operation).flatMap(({ response }) =>
          Object.values(response.content ?? {}).map((media) => media.schema),
        ),
      ]),
    ].filter((schema) => schema !== undefined);
    for (const schema of schemas) {
      expect(ajv.validateSchema(schema), ajv.errorsText()).toBe(true);
      expect(schema).not.toHaveProperty('$id');
      expect(schema).not.toHaveProperty('$schema');
    }
  });

  it('bounds no integer below zero, nor by the safe-integer range zod writes by default', () => {
    const integers = schemasIn(document).filter((schema) => schema.type === 'integer');
    expect(integers.length).toBeGreaterThan(50);
    for (const { minimum, maximum } of integers) {
      if (minimum !== undefined) expect(minimum).toBeGreaterThanOrEqual(0);
      expect(maximum).not.toBe(Number.MAX_SAFE_INTEGER);
    }
  });

  it('bounds the counts of the list header: pages from 1, totals and sizes from 0', () => {
    const { properties } = document.components.schemas.ServicePage as { properties: Record<string, Json> };
    expect(properties.page_number).toMatchObject({ type: 'integer', minimum: 1 });
    for (const count of ['total_items', 'total_pages', 'size'])
      expect(properties[count], count).toMatchObject({ type: 'integer', minimum: 0 });
  });

  it('declares each path template variable as a required path parameter, and no other', () => {
    for (const { path, operation } of operations) {
      const variables = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const pathParameters = parametersOf(operation).filter((parameter) => parameter.in === 'path');
      expect(pathParameters.map((parameter) => parameter.name).sort(), path).toEqual(variables.sort());
      for (const parameter of pathParameters) expect(parameter.required, path).toBe(true);
    }
  });

  it('gives every parameter a unique name and location, and a schema', () => {
    for (const { path, method, operation } of operations) {
      const parameters = parametersOf(operation);
      for (const parameter of parameters) {
        expect(['query', 'header', 'path', 'cookie']).toContain(parameter.in);
        expect(parameter.schema, `${method} ${path} ${parameter.name}`).toBeTypeOf('object');
      }
      const keys = parameters.map((parameter) => `${parameter.in}:${parameter.name}`);
      expect(new Set(keys).size, `${method} ${path}`).toBe(keys.length);
    }
  });

  it('gives every operation a unique id, declared tags, and described responses with media types', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = document.tags.map((tag) => tag.name);
    for (const { path, method, operation } of operations) {
      for (const tag of operation.tags) expect(tags, `${method} ${path}`).toContain(tag);
      const responses = responsesOf(operation);
      expect(responses.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const { status, response } of responses) {
        expect(status).toMatch(/^[1-5]\d\d$/);
        expect(response.description, `${method} ${path} ${status}`).toBeTypeOf('string');
        for (const mediaType of Object.keys(response.content ?? {}))
          expect(mediaType).toMatch(/^[\w*.+-]+\/[\w*.+-]+$/);
      }
    }
  });

  it('documents every route the app serves, and nothing else', async () => {
    const served = (await appRoutes()).flatMap(({ path, methods }) =>
      methods.map((method) => `${method} ${withoutTrailingSlash(path)}`),
    );
    const documented = operations.map(({ path, method }) => `${method} ${withoutTrailingSlash(path)}`);
    expect(documented.sort()).toEqual([...new Set(served)].sort());
  });

  it('answers errors as problem details', () => {
    for (const { path, method, operation } of operations) {
      for (const { status, response } of responsesOf(operation)) {
        // /readyz reports its 503 in its own body, not as a problem.
        if (Number(status) < 400 || path === '/readyz') continue;
        expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).toEqual([
          'application/problem+json',
        ]);
      }
    }
  });
});
