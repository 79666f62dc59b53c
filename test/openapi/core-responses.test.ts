/*
 * Real answers of the core read protocol match our own OpenAPI document: every list form (pages, full
 * pages, `minimal`, NDJSON lines, POST), every single record, and the error answers, validated against
 * the schema the document gives for that path, method, status and media type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import {
  idsOf,
  LIST_PATHS,
  startSampleApp,
  withQuery,
  directoryClient,
} from '../support/directory-client.ts';
import { defaultDocument } from './default-document.ts';
import { documentValidator } from './document-validator.ts';
import { responseSchemaPath } from './response-schema.ts';

const document = defaultDocument('http://localhost');
const validate = documentValidator(document);

let app: TestApp;
beforeAll(async () => {
  app = await startSampleApp();
}, 120_000);
afterAll(async () => app?.close());

/** Fetches `target` and checks its status, media type and body against the document at `path`. */
async function expectDocumented(
  path: string,
  target: string,
  status: number,
  init: RequestInit & { method?: 'GET' | 'POST' } = {},
) {
  const response = await fetch(`${app.url}${target}`, init);
  const what = `${init.method ?? 'GET'} ${target}`;
  expect(response.status, what).toBe(status);
  const mediaType = response.headers.get('content-type')!.split(';')[0]!;
  const at = responseSchemaPath(document, path, (init.method ?? 'GET').toLowerCase(), status, mediaType);
  const text = await response.text();
  const bodies = mediaType === 'application/x-ndjson' ? text.trim().split('\n') : [text];
  expect(bodies.length, what).toBeGreaterThan(0);
  for (const body of bodies) {
    const { errors } = validate(at, JSON.parse(body) as unknown);
    expect(errors, `${what}: ${body.slice(0, 200)}`).toEqual([]);
  }
  return mediaType;
}

describe('the core read protocol, as documented', () => {
  it('answers GET / as documented', async () => {
    await expectDocumented('/', '/', 200);
  });

  it('answers every list form as documented', async () => {
    for (const path of LIST_PATHS) {
      const forms = [
        withQuery(path, { per_page: 1000 }),
        withQuery(path, { per_page: 5, page: 1000 }), // past the end
        withQuery(path, { search: 'zzyzx' }), // nothing matches
        withQuery(path, { per_page: 1000, full: true }),
      ];
      for (const target of forms) await expectDocumented(path, target, 200);
      expect(await expectDocumented(path, withQuery(path, { format: 'ndjson', full: true }), 200)).toBe(
        'application/x-ndjson',
      );
      await expectDocumented(path, withQuery(path, { format: 'ndjson' }), 200);
      await expectDocumented(path, path, 200, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ per_page: 3, page: 2 }),
      });
    }
    await expectDocumented('/services', '/services?minimal=true', 200);
    await expectDocumented('/organizations', '/organizations?full=true&full_service=true&per_page=1000', 200);
    await expectDocumented('/organizations', '/organizations?format=ndjson&full=true&full_service=true', 200);
    await expectDocumented(
      '/service_at_locations',
      '/service_at_locations?postcode=98118&proximity=5000',
      200,
    );
  });

  it('answers every single record as documented', async () => {
    const client = directoryClient(app.url);
    for (const path of LIST_PATHS) {
      const ids = idsOf(await client.allItems(path));
      expect(ids.length, path).toBeGreaterThan(0);
      for (const id of ids) await expectDocumented(`${path}/{id}`, `${path}/${id}`, 200);
    }
    const [organization] = idsOf(await client.allItems('/organizations'));
    await expectDocumented('/organizations/{id}', `/organizations/${organization}?full_service=true`, 200);
  });

  it('answers errors as documented problems', async () => {
    for (const path of LIST_PATHS) {
      await expectDocumented(path, withQuery(path, { page: 'abc' }), 400);
      await expectDocumented(`${path}/{id}`, `${path}/no-such-id`, 404);
      await expectDocumented(path, path, 400, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[1]',
      });
    }
    await expectDocumented('/service_at_locations', '/service_at_locations?proximity=5', 400);
    await expectDocumented('/organizations/{id}', '/organizations/x?full_service=maybe', 400);
  });
});
