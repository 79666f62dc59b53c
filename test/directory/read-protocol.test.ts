import { Binary, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markDirectoryChanged } from '../../src/db/directory-generation.ts';
import { contentEntityTag, entityTag } from '../../src/http/entity-tag.ts';
import { seedSampleData } from '../../src/ingest/seed.ts';
import { createLogger } from '../../src/log.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { commandsRun } from '../support/commands-run.ts';

// The core read protocol over HTTP, on the sample directory in fixtures/ (see fixtures/README.md).
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await seedSampleData(app.database.db, createLogger('silent'));
}, 120_000);
afterAll(async () => app?.close());

const SERVICE = '21d5da7b-6f02-53f9-873b-f607d6266628';
/** Another service, whose stored form a test replaces for a while. */
const SERVICE_WITH_FORMS = '98e534d4-3f64-5c67-ac02-f1e595e962f4';
const ORGANIZATION = '10f8bcb3-f882-56db-84f7-645221c4be05';

type Page = {
  total_items: number;
  total_pages: number;
  page_number: number;
  size: number;
  contents: Record<string, unknown>[];
} & Record<string, unknown>;

async function getJson<T = Page>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(`${app.url}${path}`, init);
  expect(response.status, `${path}: ${response.status}`).toBe(200);
  return (await response.json()) as T;
}
const ids = (page: Page) => page.contents.map((item) => item.id as string);

/**
 * Runs `change` on SERVICE_WITH_FORMS's stored document and its organization's (given the service as stored
 * and its organization's id), and puts both back as they were after, marking the directory changed.
 */
async function changingServiceWithForms(
  change: (original: Document, organizationId: string) => Promise<void>,
): Promise<void> {
  const services = app.database.db.collection('services');
  const organizations = app.database.db.collection('organizations');
  const original = await services.findOne({ id: SERVICE_WITH_FORMS });
  const organizationId = (original!.organization as { id: string }).id;
  const originalOrganization = await organizations.findOne({ id: organizationId });
  try {
    await change(original!, organizationId);
  } finally {
    await services.updateOne(
      { id: SERVICE_WITH_FORMS },
      { $set: { _json: original!._json, _organization_at: original!._organization_at } },
    );
    await organizations.updateOne({ id: organizationId }, { $set: { _json: originalOrganization!._json } });
    await markDirectoryChanged(app.database.db);
  }
}

describe('lists and paging', () => {
  it('pages with a correct header', async () => {
    const first = await getJson('/services?per_page=5');
    expect(first).toMatchObject({
      total_items: 72,
      total_pages: 15,
      page_number: 1,
      size: 5,
      first_page: true,
      last_page: false,
      empty: false,
    });
    const last = await getJson('/services?per_page=5&page=15');
    expect(last).toMatchObject({ size: 2, first_page: false, last_page: true, empty: false });
    const past = await getJson('/services?per_page=5&page=16');
    expect(past).toMatchObject({
      total_items: 72,
      page_number: 16,
      size: 0,
      last_page: true,
      empty: false, // the result set is not empty: this page is past its end
      contents: [],
    });
    // An empty result set (empty: true) on every endpoint: parameters.test.ts.
  });

  it('orders items by id, so pages neither repeat nor skip', async () => {
    const all = await getJson('/services?per_page=1000');
    const paged = [
      ...ids(await getJson('/services?per_page=40')),
      ...ids(await getJson('/services?per_page=40&page=2')),
    ];
    expect(paged).toEqual(ids(all));
    expect(ids(all)).toEqual([...ids(all)].sort());
  });

  it('gives list items their one-to-one fields, with organization and program', async () => {
    const { contents } = await getJson(`/services?per_page=1000`);
    const item = contents.find((service) => service.id === SERVICE)!;
    expect(item).toMatchObject({
      id: SERVICE,
      name: 'Delridge Community Lunch',
      organization: { id: ORGANIZATION },
    });
    for (const nested of ['phones', 'schedules', 'service_at_locations', 'contacts', 'attributes'])
      expect(item).not.toHaveProperty(nested);
    expect(item.organization).not.toHaveProperty('locations');
    expect(Object.keys(item).filter((key) => key.startsWith('_'))).toEqual([]);
  });

  it("nests in each service at location's item its service's list item and its location", async () => {
    const services = new Map(
      (await getJson('/services?per_page=1000')).contents.map((item) => [item.id, item]),
    );
    const pairings = (await getJson('/service_at_locations?per_page=1000')).contents;
    const streamed = (await (await fetch(`${app.url}/service_at_locations?format=ndjson`)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(streamed).toEqual(pairings);
    expect(pairings.length).toBeGreaterThan(50);
    for (const pairing of pairings) {
      const service = pairing.service as Record<string, unknown>;
      expect(service, `${String(pairing.id)}`).toEqual(services.get(pairing.service_id));
      expect(pairing.location).toMatchObject({ id: pairing.location_id });
      expect(pairing.location).not.toHaveProperty('phones');
      expect(pairing).not.toHaveProperty('phones');
    }
  });

  it('never serves a stored internal field, at any depth, in any form', async () => {
    const lists = ['/services', '/organizations', '/service_at_locations', '/taxonomies', '/taxonomy_terms'];
    const targets = [
      ...lists.flatMap((path) => [`${path}?per_page=1000`, `${path}?per_page=1000&full=true`]),
      ...lists.map((path) => `${path}?format=ndjson&full=true`),
      '/organizations?per_page=1000&full=true&full_service=true',
      '/organizations?format=ndjson&full=true&full_service=true',
      '/services?minimal=true',
      `/services/${SERVICE}`,
      `/organizations/${ORGANIZATION}`,
      `/organizations/${ORGANIZATION}?full_service=true`,
    ];
    const internalKeys = (value: unknown, path: string): string[] =>
      Array.isArray(value)
        ? value.flatMap((item, index) => internalKeys(item, `${path}[${index}]`))
        : value !== null && typeof value === 'object'
          ? Object.entries(value).flatMap(([key, inner]) => [
              ...(key.startsWith('_') ? [`${path}.${key}`] : []),
              ...internalKeys(inner, `${path}.${key}`),
            ])
          : [];
    for (const target of targets) {
      const response = await fetch(`${app.url}${target}`);
      expect(response.status, target).toBe(200);
      const text = await response.text();
      const values = target.includes('ndjson')
        ? text
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as unknown)
        : [JSON.parse(text) as unknown];
      expect(
        values.flatMap((value) => internalKeys(value, '$')),
        target,
      ).toEqual([]);
    }
  });

  it('answers POST exactly like GET, body values winning', async () => {
    const get = await getJson('/services?per_page=3&page=2');
    const post = await getJson('/services?per_page=50', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ per_page: 3, page: '2' }),
    });
    expect(post).toEqual(get);
  });

  it('finds nothing for a search without a word (punctuation, emoji), rather than refusing it', async () => {
    for (const search of ['!!', '🍔', '++ --'])
      for (const path of ['/services', '/organizations', '/service_at_locations', '/taxonomy_terms']) {
        const page = await getJson(`${path}?search=${encodeURIComponent(search)}`);
        expect(page, `${path} ${search}`).toMatchObject({ total_items: 0, contents: [] });
      }
  });

  it('takes proximity in decimal only (Number() would read 0x10 as 16 metres)', async () => {
    for (const proximity of ['0x10', '0b1', '0o7']) {
      const response = await fetch(`${app.url}/service_at_locations?postcode=98118&proximity=${proximity}`);
      expect(response.status, proximity).toBe(400);
      expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([
        { parameter: 'proximity', message: 'must be a distance in metres' },
      ]);
    }
    expect((await fetch(`${app.url}/service_at_locations?postcode=98118&proximity=1.5e3`)).status).toBe(200);
  });

  it('ignores paging parameters, even malformed, when the answer is unpaged (ndjson, minimal)', async () => {
    const whole = await (await fetch(`${app.url}/services?format=ndjson`)).text();
    for (const paging of ['per_page=5000', 'page=0', 'page=abc&per_page=-1', 'page=1&page=2'])
      expect(await (await fetch(`${app.url}/services?format=ndjson&${paging}`)).text(), paging).toBe(whole);
    const minimal = await getJson<unknown[]>('/services?minimal=true&per_page=5000');
    expect(minimal).toHaveLength(72);
    // Paged, they are still checked.
    expect((await fetch(`${app.url}/services?per_page=5000`)).status).toBe(400);
  });

  it('answers POST with an empty JSON body like GET', async () => {
    const get = await getJson('/services?per_page=3&page=2');
    const headers = { 'content-type': 'application/json' };
    expect(await getJson('/services?per_page=3&page=2', { method: 'POST', headers })).toEqual(get);
    // Chunked, with nothing in it.
    const empty = new ReadableStream({ start: (controller) => controller.close() });
    const chunked = { method: 'POST', headers, body: empty, duplex: 'half' } as RequestInit;
    expect(await getJson('/services?per_page=3&page=2', chunked)).toEqual(get);
    // The JSON text "" is a body, and not an object of parameters.
    const quotes = await fetch(`${app.url}/services`, { method: 'POST', headers, body: '""' });
    expect(quotes.status).toBe(400);
  });

  it('refuses malformed parameters with 400 naming them', async () => {
    for (const [query, parameter] of [
      ['page=abc', 'page'],
      ['page=0', 'page'],
      ['per_page=1001', 'per_page'],
      ['modified_after=yesterday', 'modified_after'],
      ['full=maybe', 'full'],
      ['format=xml', 'format'],
    ] as const) {
      const response = await fetch(`${app.url}/services?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await response.json()) as { errors: unknown[] }).errors).toContainEqual(
        expect.objectContaining({ parameter }),
      );
    }
  });
});

describe('filters', () => {
  it('searches names, descriptions, organization and term names; all words must match', async () => {
    const food = ids(await getJson('/services?search=food&per_page=1000'));
    const pantry = ids(await getJson('/services?search=FOOD%20pantry&per_page=1000'));
    expect(food.length).toBeGreaterThan(pantry.length);
    expect(pantry.length).toBeGreaterThan(0);
    expect(pantry.every((id) => food.includes(id))).toBe(true);
  });

  it('filters by organization, and ANDs filters together', async () => {
    const byOrganization = await getJson(`/services?organization_id=${ORGANIZATION}&per_page=1000`);
    expect(
      byOrganization.contents.every(
        (service) => (service.organization as { id: string }).id === ORGANIZATION,
      ),
    ).toBe(true);
    const both = ids(await getJson(`/services?organization_id=${ORGANIZATION}&search=lunch&per_page=1000`));
    const lunch = ids(await getJson(`/services?search=lunch&per_page=1000`));
    expect(both).toEqual(lunch.filter((id) => ids(byOrganization).includes(id)));
    expect(both).toContain(SERVICE);
  });

  it('filters by modified_after, on or after the instant', async () => {
    const all = await getJson('/services?per_page=1000');
    const since = await getJson('/services?modified_after=2026-01-01&per_page=1000');
    const expected = all.contents.filter(
      (service) => (service.last_modified as string) >= '2026-01-01T00:00:00.000Z',
    );
    expect(ids(since)).toEqual(expected.map((service) => service.id));
    expect(since.total_items).toBeGreaterThan(0);
  });

  it('filters by taxonomy term, including the terms below it', async () => {
    const terms = await getJson('/taxonomy_terms?search=food&per_page=1000');
    const food = terms.contents.find((term) => term.name === 'Food')!;
    const pantries = terms.contents.find((term) => term.name === 'Food Pantries')!;
    const underFood = ids(await getJson(`/services?taxonomy_term_id=${food.id}&per_page=1000`));
    const pantriesOnly = ids(await getJson(`/services?taxonomy_term_id=${pantries.id}&per_page=1000`));
    expect(pantriesOnly.length).toBeGreaterThan(0);
    expect(underFood.length).toBeGreaterThan(pantriesOnly.length);
    expect(pantriesOnly.every((id) => underFood.includes(id))).toBe(true);
  });

  it('lists top-level taxonomy terms and the children of a term', async () => {
    const top = await getJson('/taxonomy_terms?top_only=true&per_page=1000');
    expect(top.contents.every((term) => term.parent_id === undefined)).toBe(true);
    const parent = top.contents.find((term) => term.name === 'Basic Needs')!;
    const children = await getJson(`/taxonomy_terms?parent_id=${parent.id}&per_page=1000`);
    expect(children.total_items).toBeGreaterThan(0);
    expect(children.contents.every((term) => term.parent_id === parent.id)).toBe(true);
  });
});

describe('single records', () => {
  it('serves the fully nested service, with Last-Modified, ETag and 304', async () => {
    const response = await fetch(`${app.url}/services/${SERVICE}`);
    expect(response.status).toBe(200);
    const service = (await response.json()) as Record<string, unknown>;
    expect(service).toMatchObject({
      id: SERVICE,
      organization: { id: ORGANIZATION },
      phones: expect.any(Array),
    });
    expect(Object.keys(service).filter((key) => key.startsWith('_'))).toEqual([]);
    expect(response.headers.get('last-modified')).toBe(
      new Date(service.last_modified as string).toUTCString(),
    );
    const tag = response.headers.get('etag')!;
    expect(tag).toMatch(/^"[\w-]+(\.(gzip|br|deflate))?"$/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const again = await fetch(`${app.url}/services/${SERVICE}`, { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
  });

  it('answers an unknown id with 404', async () => {
    const response = await fetch(`${app.url}/services/00000000-0000-4000-8000-000000000000`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      status: 404,
      detail: "No service with id '00000000-0000-4000-8000-000000000000'.",
    });
  });

  it('serves an organization with service ids, or full services on request', async () => {
    const organization = await getJson<Record<string, unknown>>(`/organizations/${ORGANIZATION}`);
    const services = organization.services as Record<string, unknown>[];
    expect(services.length).toBeGreaterThan(0);
    expect(services.every((service) => Object.keys(service).join() === 'id')).toBe(true);
    const full = await getJson<Record<string, unknown>>(`/organizations/${ORGANIZATION}?full_service=true`);
    expect((full.services as Record<string, unknown>[])[0]).toMatchObject({
      name: expect.any(String),
      status: expect.any(String),
    });
  });
});

describe('streaming', () => {
  it('streams every matching item as NDJSON, unpaged', async () => {
    const response = await fetch(`${app.url}/services?format=ndjson&per_page=1`);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string });
    expect(lines).toHaveLength(72);
    expect(lines.map((line) => line.id)).toEqual(ids(await getJson('/services?per_page=1000')));
  });

  it('lists every service as {id, modified_date} with minimal', async () => {
    const minimal = await getJson<{ id: string; modified_date: string }[]>('/services?minimal=true');
    expect(minimal).toHaveLength(72);
    expect(Object.keys(minimal[0]!)).toEqual(['id', 'modified_date']);
  });
});

describe('postcode and proximity', () => {
  it('keeps services at location whose service area covers the postcode, and those without service-area data', async () => {
    const all = await getJson('/service_at_locations?full=true&per_page=1000');
    const covering = await getJson('/service_at_locations?postcode=98118&per_page=1000');
    expect(covering.total_items).toBeGreaterThan(0);
    expect(covering.total_items).toBeLessThan(all.total_items);
  });

  it('keeps results within the distance, nearest first', async () => {
    const near = await getJson('/service_at_locations?postcode=98118&proximity=5000&per_page=1000');
    expect(near.total_items).toBeGreaterThan(0);
    expect(near.size).toBe(near.total_items);
    const wide = await getJson('/service_at_locations?postcode=98118&proximity=50000&per_page=1000');
    expect(wide.total_items).toBeGreaterThanOrEqual(near.total_items);
    expect(ids(wide).slice(0, near.size)).toEqual(ids(near));
  });

  it('pages proximity results in a total order: equal distances (services at one address) by id', async () => {
    const path = '/service_at_locations?postcode=98118&proximity=50000&full=true';
    const all = (await getJson(`${path}&per_page=1000`)).contents;
    const place = (item: Record<string, unknown>) => {
      const { latitude, longitude } = item.location as { latitude: number; longitude: number };
      return `${latitude},${longitude}`;
    };
    const ties = all.filter((item, index) => index > 0 && place(item) === place(all[index - 1]!));
    expect(ties.length, 'the sample data has services at one address').toBeGreaterThan(0);
    const paged: string[] = [];
    for (let page = 1; page <= all.length; page++)
      paged.push(...ids(await getJson(`${path}&per_page=1&page=${page}`)));
    expect(paged).toEqual(all.map((item) => item.id));
    for (const [index, item] of all.entries())
      if (index > 0 && place(item) === place(all[index - 1]!))
        expect((item.id as string) > (all[index - 1]!.id as string)).toBe(true);
  });

  it('refuses proximity without a postcode, and with one we cannot place', async () => {
    expect((await fetch(`${app.url}/service_at_locations?proximity=1000`)).status).toBe(400);
    expect((await fetch(`${app.url}/service_at_locations?postcode=ZZ9%209ZZ&proximity=1000`)).status).toBe(
      400,
    );
  });
});

describe('served forms', () => {
  it('are stored as bytes', async () => {
    const stored = await app.database.db.collection('services').findOne({ id: SERVICE_WITH_FORMS });
    expect(stored?._json).toBeInstanceOf(Binary);
    expect(stored?._item).toBeInstanceOf(Binary);
  });

  it("of a service at location hold its own part only: its service's are spliced in when read", async () => {
    const pairings = await app.database.db.collection('service_at_locations').find().toArray();
    expect(pairings.length).toBeGreaterThan(50);
    for (const pairing of pairings) {
      for (const form of ['_json', '_item']) {
        const own = JSON.parse(Buffer.from((pairing[form] as Binary).buffer).toString()) as object;
        expect(own, `${String(pairing.id)} ${form}`).not.toHaveProperty('service');
      }
    }
  });
});

describe("a service's organization", () => {
  const organizationForm = async (id: string) => {
    const organization = await app.database.db.collection('organizations').findOne({ id });
    return JSON.parse(Buffer.from((organization!._json as Binary).buffer).toString()) as object;
  };

  it('is stored once, with the organization, and spliced into the service and its services at location', async () => {
    const services = await app.database.db
      .collection('services')
      .find({ organization: { $exists: true } })
      .toArray();
    expect(services.length).toBeGreaterThan(10);
    for (const stored of services) {
      const own = JSON.parse(Buffer.from((stored._json as Binary).buffer).toString()) as object;
      expect(own, String(stored.id)).not.toHaveProperty('organization');
      const response = await fetch(`${app.url}/services/${String(stored.id)}`);
      const body = Buffer.from(await response.arrayBuffer());
      // The tag stored at import is the served bytes': the splice gives them back exactly.
      expect(contentEntityTag(response.headers.get('etag')!)).toBe(entityTag(body));
      const organization = await organizationForm((stored.organization as { id: string }).id);
      expect((JSON.parse(body.toString()) as { organization: object }).organization).toEqual(organization);
    }
    const pairings = await getJson('/service_at_locations?full=true&per_page=100');
    expect(pairings.contents.length).toBeGreaterThan(10);
    for (const pairing of pairings.contents) {
      const service = pairing.service as { organization: { id: string } };
      expect(service.organization).toEqual(await organizationForm(service.organization.id));
      const record = await getJson<typeof pairing>(`/service_at_locations/${String(pairing.id)}`);
      expect(record).toEqual(pairing);
    }
  });

  it('not stored leaves its services served without it, in records, pages and streams, and the others whole', async () => {
    const organizations = app.database.db.collection('organizations');
    const stored = await app.database.db.collection('services').findOne({ id: SERVICE_WITH_FORMS });
    const organizationId = (stored!.organization as { id: string }).id;
    const original = await organizations.findOne({ id: organizationId });
    await organizations.deleteOne({ id: organizationId });
    await markDirectoryChanged(app.database.db);
    try {
      const streamed = (await (await fetch(`${app.url}/services?format=ndjson&full=true`)).text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; organization_id: string; organization?: object });
      const paged = (await getJson('/services?full=true&per_page=100')).contents;
      expect(paged).toEqual(streamed.slice(0, 100));
      for (const service of streamed)
        if (service.organization_id === organizationId) expect(service).not.toHaveProperty('organization');
        else expect(service, service.id).toHaveProperty('organization');
      const record = await getJson<Record<string, unknown>>(`/services/${SERVICE_WITH_FORMS}`);
      expect(record).not.toHaveProperty('organization');
      expect(streamed.find((service) => service.id === SERVICE_WITH_FORMS)).toEqual(record);
    } finally {
      await organizations.insertOne(original!);
      await markDirectoryChanged(app.database.db);
    }
  });

  it('stored by an earlier release inside each service, or without a form of its own, is served alike', async () => {
    const services = app.database.db.collection('services');
    const organizations = app.database.db.collection('organizations');
    const path = `${app.url}/services/${SERVICE_WITH_FORMS}`;
    const asServed = async () => {
      await markDirectoryChanged(app.database.db);
      const response = await fetch(path);
      return {
        body: Buffer.from(await response.arrayBuffer()).toString(),
        etag: response.headers.get('etag'),
      };
    };
    const before = await asServed();
    expect(before.body).toContain('"organization":{');
    await changingServiceWithForms(async (original, organizationId) => {
      // An earlier release's service: its organization inside, and nothing to splice.
      await services.updateOne(
        { id: SERVICE_WITH_FORMS },
        { $set: { _json: Buffer.from(before.body) }, $unset: { _organization_at: '' } },
      );
      expect(await asServed()).toEqual(before);
      // This release's service, and an earlier release's organization: no `_json`, its fields as stored.
      await services.updateOne(
        { id: SERVICE_WITH_FORMS },
        { $set: { _json: original._json, _organization_at: original._organization_at } },
      );
      await organizations.updateOne({ id: organizationId }, { $unset: { _json: '' } });
      expect(await asServed()).toEqual(before);
      const full = await getJson(`/services?full=true&per_page=100`);
      const listed = full.contents.find((service) => service.id === SERVICE_WITH_FORMS);
      expect(listed).toEqual(JSON.parse(before.body));
    });
  });
});

describe('a single record', () => {
  it("is its stored served form with its organization's spliced in, tagged as sent: two finds", async () => {
    const services = app.database.db.collection('services');
    const organizations = app.database.db.collection('organizations');
    await changingServiceWithForms(async (_original, organizationId) => {
      // Bytes no serializer would write: only the stored forms can answer them.
      const marker = Buffer.from('{"id":"stored as it is",  "spacing":"kept"}');
      const organizationMarker = Buffer.from('{"name":  "stored once"}');
      // The organization goes after the first field: 23 bytes in.
      await services.updateOne({ id: SERVICE_WITH_FORMS }, { $set: { _json: marker, _organization_at: 23 } });
      await organizations.updateOne({ id: organizationId }, { $set: { _json: organizationMarker } });
      // Changed behind the API's back: marked, so that no answer kept before is sent.
      await markDirectoryChanged(app.database.db);
      const finds = await commandsRun(app.testDatabase, 'find');
      const response = await fetch(`${app.url}/services/${SERVICE_WITH_FORMS}`, {
        headers: { 'accept-encoding': 'identity' },
      });
      const expected = '{"id":"stored as it is","organization":{"name":  "stored once"},  "spacing":"kept"}';
      expect(Buffer.from(await response.arrayBuffer()).toString()).toBe(expected);
      expect(response.headers.get('etag')).toBe(entityTag(expected));
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      // Counted server-wide: exactly on the stand-in, which serves this file alone; at least on a shared
      // MongoDB. The record's, its organization's, and the directory generation's read after the mark
      // (response-cache.ts).
      const run = (await commandsRun(app.testDatabase, 'find')) - finds;
      if (app.testDatabase.kind === 'standin') expect(run).toBe(3);
      else expect(run).toBeGreaterThanOrEqual(3);
    });
  });

  it('of a root that splices nothing is its stored served form and stored tag: one find', async () => {
    const terms = app.database.db.collection('taxonomy_terms');
    const original = await terms.findOne({});
    const marker = Buffer.from('{"id":"stored as it is",  "spacing":"kept"}');
    await terms.updateOne({ id: original!.id }, { $set: { _json: marker, _etag: '"stored-tag"' } });
    await markDirectoryChanged(app.database.db);
    try {
      const finds = await commandsRun(app.testDatabase, 'find');
      const response = await fetch(`${app.url}/taxonomy_terms/${String(original!.id)}`, {
        headers: { 'accept-encoding': 'identity' },
      });
      expect(Buffer.from(await response.arrayBuffer())).toEqual(marker);
      expect(response.headers.get('etag')).toBe('"stored-tag"');
      const run = (await commandsRun(app.testDatabase, 'find')) - finds;
      if (app.testDatabase.kind === 'standin') expect(run).toBe(2);
      else expect(run).toBeGreaterThanOrEqual(2);
    } finally {
      await terms.updateOne(
        { id: original!.id },
        { $set: { _json: original!._json, _etag: original!._etag } },
      );
      await markDirectoryChanged(app.database.db);
    }
  });
});

describe('concurrent record requests', () => {
  it('each get their own record, ETag or 404, exactly as when asked one at a time', async () => {
    const paths = [
      ...ids(await getJson('/services?per_page=20')).map((id) => `/services/${id}`),
      ...ids(await getJson('/service_at_locations?per_page=10')).map((id) => `/service_at_locations/${id}`),
      '/services/no-such-service',
      '/taxonomy_terms/no-such-term',
    ];
    const answer = async (path: string) => {
      const response = await fetch(`${app.url}${path}`);
      return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
    };
    const alone = [];
    for (const path of paths) alone.push(await answer(path));
    const together = await Promise.all([...paths, ...paths].map(answer));
    expect(together).toEqual([...alone, ...alone]);
    expect(alone.filter((response) => response.status === 404)).toHaveLength(2);
  });
});
