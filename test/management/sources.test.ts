/*
 * Sources over HTTP (issue #20): `POST /import?source=NAME` loads for a source, and the management mount
 * lists the sources with their records and last load (`GET /management/sources/`), to those granted it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../meta/support.ts';
import { randomService } from '../support/random-service.ts';
import { PREFIX, startManagementApp, type ManagementApp } from './management-app.ts';

let app: ManagementApp;
let loader: TestUser;
beforeAll(async () => {
  app = await startManagementApp();
  loader = await createUser(app, [{ path: '/import', verb: 'POST' }]);
});
afterAll(() => app?.close());

const service = randomService;

async function importAs(source: string | undefined, records: object[], more = '') {
  const query = `${source === undefined ? '' : `&source=${encodeURIComponent(source)}`}${more}`;
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
      mode: 'merge',
      inserted,
      updated: 0,
      unchanged,
      rejected: 0,
      deleted: 0,
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

  it('replaces a source with mode=replace: what the body lacks is no longer served', async () => {
    const [pantry, shelter] = county;
    const replaced = await importAs('county-feed', [pantry!], '&mode=replace');
    expect(replaced).toMatchObject({
      status: 200,
      body: { replace: { had: 2, missing: 1, deleted: { service: 1, organization: 1 } } },
    });
    expect((await app.admin('GET', `${PREFIX}/sources/county-feed`)).body).toMatchObject({
      last_load: { mode: 'replace', inserted: 0, unchanged: 1, deleted: 2 },
      records: { service: 1 },
    });
    expect((await fetch(`${app.url}/services/${shelter!.id}`)).status).toBe(410);
    expect((await fetch(`${app.url}/organizations/${shelter!.organization.id}`)).status).toBe(410);
    const list = (await (await fetch(`${app.url}/services?per_page=50`)).json()) as {
      contents: { id: string }[];
    };
    expect(list.contents.map(({ id }) => id)).not.toContain(shelter!.id);
    expect(list.contents.map(({ id }) => id)).toContain(pantry!.id);
    // state-211 loads the pantry too: a replace of it with nothing keeps it for county-feed.
    expect(await importAs('state-211', [], '&mode=replace&force=true')).toMatchObject({
      body: { replace: { had: 2, missing: 2, deleted: { service: 1, organization: 1 }, released: 1 } },
    });
    expect((await fetch(`${app.url}/services/${pantry!.id}`)).status).toBe(200);
  });

  it('refuses force without mode=replace, and a mode it does not know', async () => {
    expect(await importAs('county-feed', [], '&force=true')).toMatchObject({
      status: 400,
      body: { errors: [{ parameter: 'force', message: 'goes with mode=replace' }] },
    });
    expect(await importAs('county-feed', [], '&mode=refresh')).toMatchObject({
      status: 400,
      body: { errors: [{ parameter: 'mode' }] },
    });
    expect(await importAs('county-feed', [], '&mode=merge&mode=replace')).toMatchObject({
      status: 400,
      body: { errors: [{ parameter: 'mode', message: 'must be given once' }] },
    });
  });

  it('never shows a source in what the directory serves', async () => {
    const response = await fetch(`${app.url}/services/${county[0]!.id}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('Pantry');
    expect(text).not.toMatch(/county-feed|state-211|_sources/);
  });
});
