import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/directory/endpoints.ts';
import { parameters, type ParameterName } from '../../src/directory/list-params.ts';
import { defaultDocument } from './default-document.ts';
import { documentValidator } from './document-validator.ts';
import { dereferenced } from './references.ts';
import type { Json } from '../../src/json.ts';

interface Operation {
  parameters?: unknown[];
  requestBody?: { content: { 'application/json': { schema: { properties: Json } } } };
}

const document = defaultDocument('http://localhost');
const validate = documentValidator(document);
const paths = document.paths as Record<string, Record<string, Operation>>;
const operation = (path: string, method: 'get' | 'post') => paths[path]![method]!;
const parameterNames = (path: string, method: 'get' | 'post', where = 'query') =>
  (operation(path, method).parameters ?? [])
    .map((parameter) => dereferenced<{ name: string; in: string }>(document, parameter))
    .filter((parameter) => parameter.in === where)
    .map((parameter) => parameter.name);

describe.each(endpoints.map((endpoint) => [endpoint.path, endpoint] as const))('%s', (path, endpoint) => {
  it('documents exactly the parameters the endpoint takes, on GET and POST', () => {
    expect(parameterNames(path, 'get')).toEqual(endpoint.parameters);
    expect(parameterNames(path, 'post')).toEqual(endpoint.parameters);
  });

  it('documents the same parameters as the POST body', () => {
    const body = operation(path, 'post').requestBody!.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(endpoint.parameters);
  });

  it('documents the refusals of a POST body: too large (413), not JSON (415)', () => {
    const responses = (operation(path, 'post') as { responses: Json }).responses;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['400', '413', '415']));
  });

  it('documents the id of its single records', () => {
    expect(parameterNames(`${path}/{id}`, 'get', 'path')).toEqual(['id']);
  });
});

/**
 * What the server takes beyond a parameter's documented format, as its description says: `modified_after`
 * is documented as a date-time (what generated clients send) and takes a plain date too.
 */
const beyondFormat: Partial<Record<ParameterName, readonly unknown[]>> = { modified_after: ['2025-06-01'] };

describe('modified_after', () => {
  it('says in its description what it takes beyond its format', () => {
    const { description } = document.components.parameters.modified_after as { description: string };
    for (const value of beyondFormat.modified_after!) {
      expect(parameters.modified_after.safeParse(value).success).toBe(true);
      expect(validate(['components', 'parameters', 'modified_after', 'schema'], value).valid).toBe(false);
      expect(description).toContain(String(value));
    }
  });

  it('is documented as a date-time, in the query and in the POST body', () => {
    expect(document.components.parameters.modified_after).toMatchObject({
      schema: { type: 'string', format: 'date-time' },
    });
    for (const path of ['/services', '/service_at_locations']) {
      const body = operation(path, 'post').requestBody!.content['application/json'].schema;
      expect(body.properties.modified_after, path).toMatchObject({ type: 'string', format: 'date-time' });
    }
  });
});

describe('single records', () => {
  it('document Last-Modified, which every single record carries', () => {
    const documented = endpoints.filter((endpoint) => {
      const ok = (
        operation(`${endpoint.path}/{id}`, 'get') as { responses: Record<string, { headers?: Json }> }
      ).responses['200']!;
      return 'Last-Modified' in (ok.headers ?? {});
    });
    expect(documented.map((endpoint) => endpoint.path)).toEqual(endpoints.map((endpoint) => endpoint.path));
    expect(documented.length).toBe(5);
  });

  it('documents full_service on organizations, and no query parameter elsewhere', () => {
    for (const endpoint of endpoints) {
      const expected = endpoint.path === '/organizations' ? ['full_service'] : [];
      expect(parameterNames(`${endpoint.path}/{id}`, 'get'), endpoint.path).toEqual(expected);
    }
  });
});

/** Values each of the form the parameters take: every one the server accepts must be documented as valid. */
const candidates = [
  1,
  0,
  -3,
  2.5,
  50,
  1000,
  1001,
  1_000_000,
  1_000_001,
  20_037_508,
  20_037_509,
  true,
  false,
  'json',
  'ndjson',
  'xml',
  'food bank',
  'x'.repeat(500),
  '2025-06-01',
  '2025-06-01T08:00:00Z',
  null,
  {},
];

describe.each(Object.keys(parameters) as ParameterName[])('parameter %s', (name) => {
  const schema = ['components', 'parameters', name, 'schema'];
  const beyond = beyondFormat[name] ?? [];

  it('is documented as accepting every value the server accepts', () => {
    for (const value of candidates) {
      if (parameters[name].safeParse(value).success && !beyond.includes(value)) {
        expect(validate(schema, value).valid, `${name}=${JSON.stringify(value)}`).toBe(true);
      }
    }
  });

  it('is documented with the default the server applies', () => {
    const documented = (document.components.parameters[name] as { schema: { default?: unknown } }).schema
      .default;
    const applied = parameters[name].parse(undefined);
    expect(documented).toEqual(applied);
  });

  it('is documented with a description', () => {
    expect(document.components.parameters[name]).toMatchObject({ description: expect.stringMatching(/\w/) });
  });
});
