/*
 * Sources over HTTP (issue #20): `POST /import?source=NAME` loads for a source, and the management mount
 * lists the sources with their records and last load (`GET /management/sources/`), to those granted it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../meta/support.ts';
import { PREFIX, startManagementApp, type ManagementApp } from './management-app.ts';

let app: ManagementApp;
let loader: TestUser;
beforeAll(async () => {
  app = await startManagementApp();
  loader = await createUser(app, [{ path: '/import', verb: 'POST' }]);
});
afterAll(() => app?.close());

const service = (name: string) => ({
  id: randomUUID(),
  name,
  status: 'active',
  organization: { id: randomUUID(), name: `${name} Trust`, description: 'Help for families.' },
});

async function importAs(source: string | undefined, records: object[]) {
  const query = source === undefined ? '' : `&source=${encodeURIComponent(source)}`;
  const response = await fetch(`${app.url}/import?wait=true${query}`, {
    method: 'POST',
    headers: { ...loader.headers, 'content-type': 'application/x-ndjson' },
    body: records.map((record) => JSON.stringify(record)).join('\n'),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('sources over HTTP', () => {
  const county = [service('Pantry'), service('Shelter')];
  const state = [county[0]!, service('Legal Aid')];

  beforeAll(async () => {
    expect(await importAs('county-feed', county)).toMatchObject({
      status: 200,
      body: { source: 'county-feed', inserted: 2 },
    });
    expect(await importAs('state-211', state)).toMatchObject({
      status: 200,
      body: { source: 'state-211', inserted: 1, unchanged: 1 },
    });
    expect(await importAs(undefined, [service('Dental Van')])).toMatchObject({ body: { source: 'default' } });
  });

  it('lists every source with its records by entity type and its last load', async () => {
    const answer = await app.admin('GET', `${PREFIX}/sources/?sortby=name`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total_items: 3, page_number: 1 });
    const lastLoad = (inserted: number, unchanged: number) => ({
      started_at: iso,
      finished_at: iso,
      inserted,
      updated: 0,
      unchanged,
      rejected: 0,
    });
    expect(answer.body.contents).toEqual([
      {
        name: 'county-feed',
        first_started_at: iso,
        last_started_at: iso,
        last_load: lastLoad(2, 0),
        records: { service: 2 },
      },
      {
        name: 'default',
        first_started_at: iso,
        last_started_at: iso,
        last_load: lastLoad(1, 0),
        records: { service: 1 },
      },
      {
        name: 'state-211',
        first_started_at: iso,
        last_started_at: iso,
        last_load: lastLoad(1, 1),
        records: { service: 2 },
      },
    ]);
    const one = await app.admin('GET', `${PREFIX}/sources/state-211/`);
    expect(one).toMatchObject({ status: 200, body: answer.body.contents[2] });
    expect(await app.admin('GET', `${PREFIX}/sources/?query=211`)).toMatchObject({
      body: { total_items: 1, contents: [{ name: 'state-211' }] },
    });
  });

  it('answers 404 for a source never loaded, and 403 without a grant', async () => {
    expect(await app.admin('GET', `${PREFIX}/sources/nobody/`)).toMatchObject({
      status: 404,
      body: { code: 404 },
    });
    const answer = await app.call('GET', `${PREFIX}/sources/`, { as: loader });
    expect(answer.status).toBe(403);
  });

  it('refuses a source name that is not plain, naming the parameter, and loads nothing', async () => {
    for (const name of ['', 'two words', '-leading', 'x'.repeat(101)]) {
      const answer = await importAs(name, [service('Never Loaded')]);
      expect(answer.status, name).toBe(400);
      expect(answer.body, name).toMatchObject({ errors: [{ parameter: 'source' }] });
    }
    expect((await app.admin('GET', `${PREFIX}/sources/`)).body.total_items).toBe(3);
  });

  it('never shows a source in what the directory serves', async () => {
    const response = await fetch(`${app.url}/services/${county[0]!.id}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('Pantry');
    expect(text).not.toMatch(/county-feed|state-211|_sources/);
  });
});
