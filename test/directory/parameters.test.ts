/*
 * Every parameter of every core list endpoint (spec 4.3, 4.4 and docs/profile.md), alone and combined,
 * checked against the sample directory's fully nested records: what each filter should keep is worked out
 * here, independently of the server's query code; combinations must be the intersection (spec 4.1 rule 3).
 * Also paging arithmetic, POST bodies, odd values (never a 500) and postcode/proximity geometry.
 */
import { readFileSync } from 'node:fs';
import { stemmer } from 'stemmer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import {
  blamedParameters,
  directoryClient,
  expectProblem,
  idsOf,
  LIST_PATHS,
  startSampleApp,
  withQuery,
  type DirectoryClient,
  type Item,
  type ListPath,
} from '../support/directory-client.ts';
import { geometryContains, greatCircleMetres, zipCentroid, type LatLng } from '../support/geodesy.ts';

const ORGANIZATION = '10f8bcb3-f882-56db-84f7-645221c4be05';
const CATEGORIES = '784d4dd0-4b4f-5d7b-bdf0-e6f8d106c0bc';
const AUDIENCES = '156b553c-9d11-59fe-8298-4f3261900cda';
const BASIC_NEEDS = '994f5d5c-de07-5c8f-8f1b-b84a1811094d';
const FOOD = '2a8a741e-a799-5a8a-9abc-4104e24bccfe';
const FOOD_PANTRIES = 'a4bf1ef4-fdab-5edf-b51f-300eace0ed79';
const OLDER_ADULTS = '7b7906a4-f348-57ec-b721-e5d4d2d33546';
/** A postcode no gazetteer knows: it can only match service areas that list it. */
const UNKNOWN_POSTCODE = 'ZZ9 9ZZ';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8')) as Item[];

let app: TestApp;
let client: DirectoryClient;
/** The fully nested records of each resource, as served: the ground truth filters are checked against. */
const records = {} as Record<ListPath, Item[]>;
beforeAll(async () => {
  app = await startSampleApp();
  client = directoryClient(app.url);
  const full: Record<ListPath, string> = {
    '/services': 'full=true',
    '/organizations': 'full=true&full_service=true',
    '/service_at_locations': 'full=true',
    '/taxonomies': '',
    '/taxonomy_terms': '',
  };
  for (const path of LIST_PATHS) {
    records[path] = await client.ndjsonItems(`${path}?format=ndjson&${full[path]}`);
  }
}, 120_000);
afterAll(async () => app?.close());

const url = (target: string) => `${app.url}${target}`;
const listIds = async (path: string, parameters: Record<string, string | number | boolean> = {}) =>
  idsOf(await client.allItems(path, parameters));
const intersection = (first: string[], second: string[]) => first.filter((id) => second.includes(id));

// ---- What each filter keeps, worked out from the fully nested records ----

/** Words as the profile compares them: case- and accent-insensitive, whole words, any form (Porter stems). */
const wordsOf = (text: unknown): string[] =>
  typeof text === 'string'
    ? text
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
        .map(stemmer)
    : [];
const hasEveryWord = (search: string, texts: unknown[]) => {
  const words = new Set(texts.flatMap(wordsOf));
  return wordsOf(search).every((word) => words.has(word));
};

const list = (value: unknown) => (Array.isArray(value) ? (value as Item[]) : []);
const object = (value: unknown) => (value ?? {}) as Item;

/** A term and every term below it, from the `parent_id` links of the sample's terms. */
function termAndBelow(termId: string): string[] {
  const terms = fixture('taxonomy_terms.json');
  const found = [termId];
  for (let index = 0; index < found.length; index++) {
    for (const term of terms) if (term.parent_id === found[index]) found.push(term.id as string);
  }
  return found;
}
const termsApplied = (record: Item) =>
  list(record.attributes).map(
    (attribute) => attribute.taxonomy_term_id ?? object(attribute.taxonomy_term).id,
  );
const taxonomiesApplied = (record: Item) =>
  list(record.attributes).map((attribute) => object(attribute.taxonomy_term).taxonomy_id);
const classifiedUnder = (record: Item, termId: string) => {
  const terms = termAndBelow(termId);
  return termsApplied(record).some((term) => terms.includes(term as string));
};
const serviceTexts = (service: Item) => [
  service.name,
  service.alternate_name,
  service.description,
  object(service.organization).name,
  ...list(service.attributes).map((attribute) => object(attribute.taxonomy_term).name),
];
/** A location's physical addresses (profile: postal ones are not where a service is). */
const physicalAddresses = (location: Item) =>
  list(location.addresses).filter((address) => (address.address_type ?? 'physical') === 'physical');
/** A location's address lines, town and postal code (profile: what a search finds a place by). */
const addressTexts = (location: Item) =>
  physicalAddresses(location).flatMap((address) => [
    address.address_1,
    address.address_2,
    address.city,
    address.postal_code,
  ]);
/** The towns and postal codes where a service is offered, at its locations. */
const servicePlaces = (service: Item) =>
  list(service.service_at_locations).flatMap((pairing) =>
    physicalAddresses(object(pairing.location)).flatMap((address) => [address.city, address.postal_code]),
  );
const modifiedOnOrAfter = (service: Item, instant: string) =>
  Date.parse(service.last_modified as string) >=
  Date.parse(instant.length === 10 ? `${instant}T00:00:00Z` : instant);

/**
 * Whether a service at location's service area covers the postcode (profile: its own areas, else its
 * service's; a listed postcode, or a polygon holding the postcode's centroid), or it has no usable
 * service-area data at all.
 */
function coversPostcode(serviceAtLocation: Item, postcode: string): boolean {
  const own = list(serviceAtLocation.service_areas);
  const areas = own.length > 0 ? own : list(object(serviceAtLocation.service).service_areas);
  const normalized = postcode.toUpperCase().replace(/\s+/g, '');
  const centroid = zipCentroid(normalized);
  let usable = false;
  for (const area of areas) {
    if (area.extent_type === 'geojson') {
      usable = true;
      if (centroid && geometryContains(JSON.parse(area.extent as string), centroid)) return true;
    } else if (area.extent_type === 'text') {
      const listed = (area.extent as string).split(',').map((code) => code.trim().toUpperCase());
      usable = true;
      if (listed.includes(normalized)) return true;
    }
  }
  return !usable;
}

type Filter = (record: Item, value: string) => boolean;

/** Each list endpoint's filters, with values to try (the first is used in combinations). */
const filters: Record<ListPath, Record<string, { values: string[]; keeps: Filter }>> = {
  '/services': {
    search: {
      values: ['food', 'Legal AID', 'dental', 'shelters', 'immigrant', 'Seattle food', '98118'],
      keeps: (s, v) => hasEveryWord(v, [...serviceTexts(s), ...servicePlaces(s)]),
    },
    taxonomy_term_id: {
      values: [FOOD, FOOD_PANTRIES, BASIC_NEEDS, OLDER_ADULTS, 'no-such-term'],
      keeps: classifiedUnder,
    },
    taxonomy_id: {
      values: [AUDIENCES, CATEGORIES, 'no-such-taxonomy'],
      keeps: (s, v) => taxonomiesApplied(s).includes(v),
    },
    organization_id: {
      values: [ORGANIZATION, 'no-such-organization'],
      keeps: (s, v) => object(s.organization).id === v,
    },
    modified_after: {
      values: ['2026-01-01', '2025-06-01T00:00:00-07:00', '2030-01-01'],
      keeps: modifiedOnOrAfter,
    },
  },
  '/organizations': {
    search: {
      values: ['food', 'legal'],
      keeps: (o, v) => hasEveryWord(v, [o.name, o.alternate_name, o.description]),
    },
    // Through the organization's own attributes or any service it provides (profile).
    taxonomy_term_id: {
      values: [FOOD_PANTRIES, BASIC_NEEDS, OLDER_ADULTS],
      keeps: (o, v) => [o, ...list(o.services)].some((record) => classifiedUnder(record, v)),
    },
    taxonomy_id: {
      values: [AUDIENCES, CATEGORIES],
      keeps: (o, v) => [o, ...list(o.services)].some((record) => taxonomiesApplied(record).includes(v)),
    },
  },
  '/service_at_locations': {
    search: {
      values: ['food', 'library', 'Seattle', 'shelters', '98118', 'Rainier Ave'],
      // Its own description, its location's name and address (it has no name of its own), and its
      // service's texts.
      keeps: (sal, v) =>
        hasEveryWord(v, [
          sal.description,
          object(sal.location).name,
          ...addressTexts(object(sal.location)),
          ...serviceTexts(object(sal.service)),
        ]),
    },
    taxonomy_term_id: {
      values: [FOOD, OLDER_ADULTS],
      keeps: (sal, v) => classifiedUnder(object(sal.service), v),
    },
    taxonomy_id: {
      values: [AUDIENCES],
      keeps: (sal, v) => taxonomiesApplied(object(sal.service)).includes(v),
    },
    organization_id: {
      values: [ORGANIZATION],
      keeps: (sal, v) => object(object(sal.service).organization).id === v,
    },
    modified_after: {
      values: ['2026-01-01'],
      keeps: (sal, v) => modifiedOnOrAfter(object(sal.service), v),
    },
    postcode: { values: ['98118', '98125', '02128', UNKNOWN_POSTCODE], keeps: coversPostcode },
  },
  '/taxonomies': {
    search: { values: ['audiences', 'community'], keeps: (t, v) => hasEveryWord(v, [t.name, t.description]) },
  },
  '/taxonomy_terms': {
    search: {
      values: ['food', 'adults'],
      keeps: (t, v) => hasEveryWord(v, [t.name, t.description, t.code]),
    },
    taxonomy_id: { values: [CATEGORIES, AUDIENCES], keeps: (t, v) => t.taxonomy_id === v },
    parent_id: { values: [BASIC_NEEDS, FOOD, 'no-such-term'], keeps: (t, v) => t.parent_id === v },
    // The terms at the top of their hierarchy (profile); false keeps every term.
    top_only: { values: ['true', 'false'], keeps: (t, v) => v === 'false' || t.parent_id === undefined },
  },
};

const expectedIds = (path: ListPath, keep: (record: Item) => boolean) =>
  idsOf(records[path].filter(keep)).sort();

describe('filters alone', () => {
  it('serves the whole sample directory', async () => {
    const sample = fixture('organizations.json');
    const services = sample.flatMap((organization) => list(organization.services));
    expect(idsOf(records['/organizations']).sort()).toEqual(idsOf(sample).sort());
    expect(idsOf(records['/services']).sort()).toEqual(idsOf(services).sort());
    expect(records['/service_at_locations']).toHaveLength(101);
    expect(idsOf(records['/taxonomies']).sort()).toEqual(idsOf(fixture('taxonomies.json')).sort());
    expect(idsOf(records['/taxonomy_terms']).sort()).toEqual(idsOf(fixture('taxonomy_terms.json')).sort());
  });

  for (const path of LIST_PATHS) {
    for (const [name, { values, keeps }] of Object.entries(filters[path])) {
      it(`${path}: ${name} keeps exactly the matching records`, async () => {
        for (const value of values) {
          const expected = expectedIds(path, (record) => keeps(record, value));
          expect(await listIds(path, { [name]: value }), `${path}?${name}=${value}`).toEqual(expected);
        }
      });
    }
  }

  it('finds what the sample was built to find', async () => {
    // fixtures/README.md: 32 services modified in 2026; Food Pantries tags 7 services; nothing is tagged
    // with Basic Needs itself, so what it finds comes from the terms below it.
    expect(await listIds('/services', { modified_after: '2026-01-01T00:00:00Z' })).toHaveLength(32);
    expect(await listIds('/services', { taxonomy_term_id: FOOD_PANTRIES })).toHaveLength(7);
    expect(records['/services'].some((service) => termsApplied(service).includes(BASIC_NEEDS))).toBe(false);
    expect((await listIds('/services', { taxonomy_term_id: BASIC_NEEDS })).length).toBeGreaterThan(7);
  });

  it('searches any form of a word: plurals and common English inflections', async () => {
    const shelter = await listIds('/services', { search: 'shelter' });
    expect(shelter.length).toBeGreaterThan(0);
    expect(await listIds('/services', { search: 'shelters' })).toEqual(shelter);
    const immigrants = await listIds('/services', { search: 'immigrants' });
    expect(await listIds('/services', { search: 'immigrant' })).toEqual(immigrants);
    // Some are found only through the other form of the word: exact words alone would miss them.
    const exactly = (word: string) =>
      records['/services'].filter((service) =>
        serviceTexts(service).some(
          (text) => typeof text === 'string' && new RegExp(`\\b${word}\\b`, 'i').test(text),
        ),
      ).length;
    expect(immigrants.length).toBeGreaterThan(exactly('immigrant'));
    expect(shelter.length).toBeGreaterThan(exactly('shelters'));
  });

  it('finds services at location by their address, and services by the towns and postcodes where offered', async () => {
    const inSeattle = records['/service_at_locations'].filter((pairing) =>
      list(object(pairing.location).addresses).some((address) => address.city === 'Seattle'),
    );
    expect(inSeattle.length).toBeGreaterThan(0);
    expect(await listIds('/service_at_locations', { search: 'Seattle' })).toEqual(
      expect.arrayContaining(idsOf(inSeattle)),
    );
    const at98118 = records['/services'].filter((service) => servicePlaces(service).includes('98118'));
    expect(at98118.length).toBeGreaterThan(0);
    expect(await listIds('/services', { search: '98118' })).toEqual(idsOf(at98118).sort());
  });

  it('searches case- and accent-insensitively, whole words only', async () => {
    const food = await listIds('/services', { search: 'food' });
    expect(await listIds('/services', { search: 'FÔÔD' })).toEqual(food);
    expect(await listIds('/services', { search: '  food  ' })).toEqual(food);
    expect(await listIds('/services', { search: 'foo' })).toEqual([]);
  });
});

describe('filters combined (AND)', () => {
  for (const path of LIST_PATHS) {
    const names = Object.keys(filters[path]);
    if (names.length < 2) continue;
    it(`${path}: every pair of filters, and all of them, give the intersection of each alone`, async () => {
      const alone = new Map<string, string[]>();
      for (const name of names)
        alone.set(name, await listIds(path, { [name]: filters[path][name]!.values[0]! }));
      const combine = async (chosen: string[]) => {
        const parameters = Object.fromEntries(chosen.map((name) => [name, filters[path][name]!.values[0]!]));
        const expected = chosen.map((name) => alone.get(name)!).reduce(intersection);
        expect(await listIds(path, parameters), JSON.stringify(parameters)).toEqual(expected);
      };
      for (const [index, first] of names.entries()) {
        for (const second of names.slice(index + 1)) await combine([first, second]);
      }
      await combine(names);
    });
  }

  it('/service_at_locations: proximity (with its postcode) and each other filter, and all of them', async () => {
    const path = '/service_at_locations';
    const near = { postcode: '98118', proximity: 8000 };
    const nearest = await listIds(path, near);
    expect(nearest.length).toBeGreaterThan(1);
    const others = Object.keys(filters[path]).filter((name) => name !== 'postcode');
    const all: Record<string, string | number> = { ...near };
    let expected = nearest;
    for (const name of others) {
      const value = filters[path][name]!.values[0]!;
      const alone = await listIds(path, { [name]: value });
      // Nearest first, as proximity orders them.
      expect(await listIds(path, { ...near, [name]: value }), name).toEqual(intersection(nearest, alone));
      all[name] = value;
      expected = intersection(expected, alone);
    }
    expect(await listIds(path, all), JSON.stringify(all)).toEqual(expected);
    expect(expected.length).toBeLessThan(nearest.length);
  });

  it('narrows for real: search ∩ taxonomy_id is a non-empty strict subset of each', async () => {
    const search = await listIds('/services', { search: 'food' });
    const taxonomy = await listIds('/services', { taxonomy_id: AUDIENCES });
    const both = await listIds('/services', { search: 'food', taxonomy_id: AUDIENCES });
    expect(both).toEqual(intersection(search, taxonomy));
    expect(both.length).toBeGreaterThan(0);
    expect(both.length).toBeLessThan(Math.min(search.length, taxonomy.length));
  });
});

/** The list header for a page, worked out from the spec's definitions and the profile. */
const expectedHeader = (totalItems: number, page: number, perPage: number) => {
  const totalPages = Math.ceil(totalItems / perPage);
  const size = Math.max(0, Math.min(perPage, totalItems - (page - 1) * perPage));
  return {
    total_items: totalItems,
    total_pages: totalPages,
    page_number: page,
    size,
    first_page: page === 1,
    last_page: page >= totalPages,
    empty: totalItems === 0, // spec part 2: the result set is empty, whatever the page
  };
};

describe('paging', () => {
  const SERVICES = 72;

  it('gets the header right at the edges', async () => {
    const cases: [perPage: number, page: number][] = [
      [1, 1],
      [1, 2],
      [1, 72],
      [1, 73],
      [1000, 1],
      [1000, 2],
      [8, 9], // 72 is exactly 9 pages of 8: the last page is full
      [8, 10],
      [24, 3],
      [72, 1],
      [72, 2],
      [71, 2], // one item on the last page
      [50, 2],
    ];
    for (const [perPage, page] of cases) {
      const { contents, ...header } = await client.getJson(
        withQuery('/services', { per_page: perPage, page }),
      );
      expect(header, `per_page=${perPage}&page=${page}`).toEqual(expectedHeader(SERVICES, page, perPage));
      expect(contents).toHaveLength(header.size);
    }
  });

  it('defaults to page 1 of 50', async () => {
    const { contents, ...header } = await client.getJson('/services');
    expect(header).toEqual(expectedHeader(SERVICES, 1, 50));
    expect(idsOf(contents)).toEqual(idsOf(records['/services']).sort().slice(0, 50));
  });

  it('says total_pages 0 for an empty result, on every endpoint', async () => {
    for (const path of LIST_PATHS) {
      for (const page of [1, 2]) {
        const { contents, ...header } = await client.getJson(withQuery(path, { search: 'zzyzx', page }));
        expect(header, path).toEqual(expectedHeader(0, page, 50));
        expect(contents).toEqual([]);
      }
    }
  });

  it('pages through every endpoint in id order, without repeats or gaps', async () => {
    for (const path of LIST_PATHS) {
      const paged: string[] = [];
      for (let page = 1; ; page++) {
        const { contents, last_page } = await client.getJson(withQuery(path, { per_page: 7, page }));
        paged.push(...idsOf(contents));
        if (last_page) break;
      }
      expect(paged, path).toEqual(idsOf(records[path]).sort());
    }
  });

  it('refuses per_page above the maximum and page below 1', async () => {
    for (const query of ['per_page=1001', 'per_page=0', 'page=0', 'page=-1']) {
      const problem = await expectProblem(await fetch(url(`/services?${query}`)), 400, query);
      expect(blamedParameters(problem)).toEqual([query.split('=')[0]]);
    }
  });
});

/** A representative set of parameters for each list endpoint, as JSON values. */
const postCases: Record<ListPath, Record<string, string | number | boolean>> = {
  '/services': { search: 'food', taxonomy_id: AUDIENCES, per_page: 3, page: 2, full: true },
  '/organizations': { taxonomy_term_id: FOOD_PANTRIES, full: true, full_service: true, per_page: 2 },
  '/service_at_locations': { postcode: '98118', proximity: 8000, modified_after: '2025-01-10', per_page: 4 },
  '/taxonomies': { search: 'community', per_page: 1 },
  '/taxonomy_terms': { taxonomy_id: CATEGORIES, top_only: true, per_page: 2, page: 2 },
};

describe('POST lists', () => {
  for (const path of LIST_PATHS) {
    it(`POST ${path} with a JSON body answers exactly like GET`, async () => {
      const parameters = postCases[path];
      const get = await client.getJson(withQuery(path, parameters));
      expect(get.size).toBeGreaterThan(0);
      expect(await client.postJson(path, parameters)).toEqual(get);
      // An empty object, or no body at all, is a list with no parameters.
      const plain = await client.getJson(path);
      expect(await client.postJson(path, {})).toEqual(plain);
      expect(await client.getJson(path, { method: 'POST' })).toEqual(plain);
    });
  }

  it('refuses a body that is not a JSON object with 400 naming the body', async () => {
    for (const path of LIST_PATHS) {
      for (const body of ['[]', '[{"page":2}]', '"page=2"', '42', 'true', 'null']) {
        const response = await fetch(url(path), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const problem = await expectProblem(response, 400, `POST ${path} ${body}`);
        expect(problem.detail, body).toMatch(/body/i);
        expect(problem.errors, body).toContainEqual(expect.objectContaining({ field: '$' }));
      }
    }
  });

  it('refuses a body that is not JSON with 400', async () => {
    const response = await fetch(url('/services'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"page": ',
    });
    expect((await expectProblem(response, 400, 'truncated JSON')).detail).toMatch(/body/i);
  });

  it('take a blank value as the parameter left out, as a form sends an empty field', async () => {
    const plain = await client.getJson('/services');
    const blank = '/services?search=&taxonomy_term_id=&organization_id=%20&modified_after=&page=&per_page=+';
    expect(await client.getJson(blank)).toEqual(plain);
    expect(await client.getJson('/services?search=%20%20')).toEqual(plain);
    expect(await client.postJson('/services', { search: ' ', taxonomy_id: '' })).toEqual(plain);
    const sals = await client.getJson('/service_at_locations');
    expect(await client.getJson('/service_at_locations?postcode=&proximity=')).toEqual(sals);
  });

  it('refuses a body with a __proto__ key with 400 saying so', async () => {
    const response = await fetch(url('/services'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"page": 1, "__proto__": {"per_page": 5000}}',
    });
    expect((await expectProblem(response, 400, '__proto__')).detail).toBe(
      'The request body has a "__proto__" key, which is refused.',
    );
  });
});

/** The parameters of each list endpoint, per spec 4.3 and 4.4. */
const parametersOf: Record<ListPath, string[]> = {
  '/services': [
    'page',
    'per_page',
    'format',
    'search',
    'taxonomy_term_id',
    'taxonomy_id',
    'organization_id',
    'modified_after',
    'minimal',
    'full',
  ],
  '/organizations': [
    'page',
    'per_page',
    'format',
    'search',
    'taxonomy_term_id',
    'taxonomy_id',
    'full',
    'full_service',
  ],
  '/service_at_locations': [
    'page',
    'per_page',
    'format',
    'search',
    'taxonomy_term_id',
    'taxonomy_id',
    'organization_id',
    'modified_after',
    'full',
    'postcode',
    'proximity',
  ],
  '/taxonomies': ['page', 'per_page', 'format', 'search'],
  '/taxonomy_terms': ['page', 'per_page', 'format', 'search', 'taxonomy_id', 'top_only', 'parent_id'],
};

/** Odd query-string values: each must be answered 200 or 400 naming the parameter, never 5xx. */
const ODD_QUERY_VALUES = [
  '',
  'x'.repeat(4000),
  '🙂 ünïcødé 漢字 עברית',
  '-1',
  '1.5',
  'NaN',
  '1e3',
  '0x10',
  '{"$gt":""}',
  '[1,2]',
  'null',
  '\u0000',
  "'; db.dropDatabase(); '",
];

/** Odd JSON body values, for the POST variants. */
const ODD_BODY_VALUES: unknown[] = [null, { $gt: '' }, [], ['food'], -1, 1.5, 1e308, true, 'x'.repeat(4000)];

/** Asserts a fuzzed request is answered 200, or 400 problem details naming the parameter. */
async function expectHandled(response: Response, parameter: string, what: string) {
  expect(response.status, what).toBeLessThan(500);
  if (response.status === 200) {
    await response.arrayBuffer();
    return;
  }
  const problem = await expectProblem(response, 400, what);
  expect(blamedParameters(problem), what).toContain(parameter);
}

describe('odd values', () => {
  for (const path of LIST_PATHS) {
    it(`${path}: every parameter, given odd values in the query, is a 200 or a 400 naming it`, async () => {
      for (const parameter of parametersOf[path]) {
        for (const value of ODD_QUERY_VALUES) {
          const target = `${path}?${new URLSearchParams({ [parameter]: value })}`;
          await expectHandled(await fetch(url(target)), parameter, target.slice(0, 200));
        }
        // A known parameter given twice is ambiguous: refused (profile).
        const repeated = `${path}?${parameter}=1&${parameter}=2`;
        const problem = await expectProblem(await fetch(url(repeated)), 400, repeated);
        expect(blamedParameters(problem)).toEqual([parameter]);
      }
    });

    it(`${path}: every parameter, given odd values in a POST body, is a 200 or a 400 naming it`, async () => {
      for (const parameter of parametersOf[path]) {
        for (const value of ODD_BODY_VALUES) {
          const body = JSON.stringify({ [parameter]: value });
          const response = await fetch(url(path), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          await expectHandled(response, parameter, `POST ${path} ${body.slice(0, 200)}`);
        }
      }
    });
  }

  it('answers odd ids of single records with 404 problem details', async () => {
    for (const path of LIST_PATHS) {
      for (const id of ['no-such-id', '🙂', 'x'.repeat(4000), '{"$gt":""}', '%00', '..%2F..%2Fetc', ' ']) {
        const target = `${path}/${encodeURIComponent(id)}`;
        await expectProblem(await fetch(url(target)), 404, target.slice(0, 200));
      }
    }
  });

  it('refuses odd full_service values on a single organization with 400 naming it', async () => {
    for (const value of ['maybe', '2', '{}', 'x'.repeat(4000)]) {
      const target = `/organizations/${ORGANIZATION}?${new URLSearchParams({ full_service: value })}`;
      const problem = await expectProblem(await fetch(url(target)), 400, target.slice(0, 200));
      expect(blamedParameters(problem)).toEqual(['full_service']);
    }
    const twice = `/organizations/${ORGANIZATION}?full_service=true&full_service=false`;
    expect(blamedParameters(await expectProblem(await fetch(url(twice)), 400, twice))).toEqual([
      'full_service',
    ]);
    // Whether or not the organization exists: the parameter is checked first.
    const unknown = '/organizations/no-such-organization?full_service=maybe';
    expect(blamedParameters(await expectProblem(await fetch(url(unknown)), 400, unknown))).toEqual([
      'full_service',
    ]);
  });

  it('refuses an unknown parameter with 400 naming it and listing those the endpoint takes', async () => {
    // A misspelt filter (`postcde`) must not look like one that worked.
    const typo = '/service_at_locations?postcde=98125';
    const problem = await expectProblem(await fetch(url(typo)), 400, typo);
    expect(blamedParameters(problem)).toEqual(['postcde']);
    expect(problem.detail).toContain("'postcde' is not a parameter of this endpoint");
    expect(problem.detail).toContain(
      'it takes age, day, format, full, modified_after, open_at, open_now, organization_id, page, per_page, ' +
        'postcode, proximity, search, taxonomy_id, taxonomy_term_id, time',
    );
    // Every list, each naming what it takes; a parameter of another list is unknown here.
    for (const [target, unknown] of [
      ['/services?postcode=98125', 'postcode'],
      ['/organizations?minimal=true', 'minimal'],
      ['/taxonomies?full_service=true', 'full_service'],
      ['/taxonomy_terms?colour=blue&per_page=5', 'colour'],
    ]) {
      expect(blamedParameters(await expectProblem(await fetch(url(target!)), 400, target!))).toEqual([
        unknown,
      ]);
    }
    // With the known ones' own errors.
    const both = '/services?per_page=0&colour=blue';
    expect(blamedParameters(await expectProblem(await fetch(url(both)), 400, both)).sort()).toEqual([
      'colour',
      'per_page',
    ]);
  });

  it('refuses unknown parameters in a POST body, and on single records', async () => {
    const response = await fetch(url('/services'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ per_page: 5, serach: 'food' }),
    });
    expect(blamedParameters(await expectProblem(response, 400, 'POST /services'))).toEqual(['serach']);
    const [service] = (await client.getJson('/services?per_page=1')).contents as Item[];
    const record = `/services/${service!.id}?full=true`;
    const problem = await expectProblem(await fetch(url(record)), 400, record);
    expect(blamedParameters(problem)).toEqual(['full']);
    expect(problem.detail).toContain('it takes none');
    const organization = `/organizations/${ORGANIZATION}?full_services=true`;
    const blamed = await expectProblem(await fetch(url(organization)), 400, organization);
    expect(blamedParameters(blamed)).toEqual(['full_services']);
    expect(blamed.detail).toContain('it takes full_service');
  });

  it('lists the first 10 faults of a request naming thousands, and how many more there are', async () => {
    // Each listing what the endpoint takes, 80,000 unknown keys (~0.9 MB) were a 34 MB answer.
    const names = Array.from({ length: 5_000 }, (_, n) => `k${n}`);
    const response = await fetch(url('/services'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(names.map((name) => [name, 1]))),
    });
    const text = await response.clone().text();
    const problem = await expectProblem(response, 400, 'POST /services with 5,000 unknown keys');
    expect(blamedParameters(problem)).toEqual(names.slice(0, 10));
    expect(problem.detail).toMatch(
      /^Invalid parameters: 'k0' is not a parameter of this endpoint \(it takes /,
    );
    expect(problem.detail).toMatch(/; and 4990 more\.$/);
    expect(text.length).toBeLessThan(20_000);
    const query = `/taxonomies?${names
      .slice(0, 12)
      .map((name) => `${name}=1`)
      .join('&')}&per_page=0`;
    const some = await expectProblem(await fetch(url(query)), 400, query);
    expect(blamedParameters(some)).toEqual(['per_page', ...names.slice(0, 9)]);
    expect(some.detail).toMatch(/; and 3 more\.$/);
  });

  it('ignores unknown parameters where HSDS_UNKNOWN_PARAMETERS is ignore', async () => {
    const lenient = await startSampleApp({ HSDS_UNKNOWN_PARAMETERS: 'ignore' });
    try {
      const lenientClient = directoryClient(lenient.url);
      expect(await lenientClient.getJson('/services?colour=blue&per_page=5')).toEqual(
        await client.getJson('/services?per_page=5'),
      );
      expect((await fetch(`${lenient.url}/organizations/${ORGANIZATION}?colour=blue`)).status).toBe(200);
    } finally {
      await lenient.close();
    }
  });
});

describe('minimal', () => {
  it('lists every service as {id, modified_date}, in one unpaged call', async () => {
    for (const target of ['/services?minimal=true', '/services?minimal=1&per_page=1&page=2']) {
      const minimal = await client.getJson<Item[]>(target);
      const expected = [...records['/services']]
        .sort((a, b) => (a.id as string).localeCompare(b.id as string))
        .map((service) => ({ id: service.id, modified_date: service.last_modified }));
      expect(minimal, target).toEqual(expected);
    }
  });

  it('applies the filters', async () => {
    const minimal = await client.getJson<Item[]>(
      '/services?minimal=true&search=food&modified_after=2025-06-01',
    );
    expect(idsOf(minimal)).toEqual(
      await listIds('/services', { search: 'food', modified_after: '2025-06-01' }),
    );
    expect(idsOf(minimal).length).toBeGreaterThan(0);
  });

  it('streams the same entries as NDJSON with format=ndjson, one a line', async () => {
    const response = await fetch(url('/services?minimal=true&format=ndjson&search=food'));
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await response.text()).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line) as Item)).toEqual(
      await client.getJson<Item[]>('/services?minimal=true&search=food'),
    );
    expect(lines.length).toBeGreaterThan(1);
  });

  it('answers POST like GET, and minimal=false with a page', async () => {
    expect(await client.postJson<Item[]>('/services', { minimal: true, search: 'legal' })).toEqual(
      await client.getJson<Item[]>('/services?minimal=true&search=legal'),
    );
    expect(await client.getJson('/services?minimal=false&per_page=5')).toEqual(
      await client.getJson('/services?per_page=5'),
    );
  });
});

describe('full and full_service', () => {
  const recordPaths: { list: string; record: (id: string) => string }[] = [
    { list: '/services?full=true', record: (id) => `/services/${id}` },
    { list: '/service_at_locations?full=true', record: (id) => `/service_at_locations/${id}` },
    { list: '/organizations?full=true', record: (id) => `/organizations/${id}` },
    {
      list: '/organizations?full=true&full_service=true',
      record: (id) => `/organizations/${id}?full_service=true`,
    },
    // Every list takes full (spec 4.1 rule 7): taxonomies and terms whole, as their single records.
    { list: '/taxonomies?full=true', record: (id) => `/taxonomies/${id}` },
    { list: '/taxonomy_terms?full=true', record: (id) => `/taxonomy_terms/${id}` },
  ];
  for (const { list: target, record } of recordPaths) {
    it(`${target} items are the single records`, async () => {
      const { contents } = await client.getJson(`${target}&per_page=1000`);
      expect(contents.length).toBeGreaterThan(0);
      for (const item of contents)
        expect(item).toEqual(await client.getJson<Item>(record(item.id as string)));
    });
  }

  it('keeps list items to their one-to-one fields without full', async () => {
    for (const query of ['', '?full=false', '?full_service=true']) {
      const { contents } = await client.getJson(`/organizations${query}`);
      for (const organization of contents) {
        for (const nested of ['services', 'locations', 'phones', 'contacts', 'programs'])
          expect(organization, `/organizations${query}`).not.toHaveProperty(nested);
      }
    }
    const { contents } = await client.getJson('/service_at_locations?per_page=1000');
    for (const item of contents) {
      expect(Object.keys(item).sort()).toEqual(expect.arrayContaining(['id', 'location', 'service']));
      expect(item.location).not.toHaveProperty('addresses');
      expect(item.service).not.toHaveProperty('phones');
      expect(object(item.service).organization).toEqual(expect.objectContaining({ id: expect.any(String) }));
    }
  });
});

describe('flags', () => {
  it('take true, 1 and yes, and false, 0 and no, in any case, in the query and as text in a body', async () => {
    const asTrue = await client.getJson('/services?full=true&per_page=3');
    const asFalse = await client.getJson('/services?full=false&per_page=3');
    expect(asTrue).not.toEqual(asFalse);
    for (const value of ['1', 'yes', 'YES', 'True'])
      expect(await client.getJson(`/services?full=${value}&per_page=3`), `full=${value}`).toEqual(asTrue);
    for (const value of ['0', 'no', 'NO', 'False'])
      expect(await client.getJson(`/services?full=${value}&per_page=3`), `full=${value}`).toEqual(asFalse);
    expect(await client.postJson('/services', { full: 'Yes', per_page: 3 })).toEqual(asTrue);
    expect(await client.getJson(`/organizations/${ORGANIZATION}?full_service=YES`)).toEqual(
      await client.getJson(`/organizations/${ORGANIZATION}?full_service=true`),
    );
  });

  it('refuse any other value with a 400 naming the flag and the values it takes', async () => {
    for (const [target, parameter] of [
      ['/services?full=maybe', 'full'],
      ['/services?minimal=on', 'minimal'],
      ['/taxonomy_terms?top_only=y', 'top_only'],
      [`/organizations/${ORGANIZATION}?full_service=2`, 'full_service'],
    ] as const) {
      const problem = await expectProblem(await fetch(url(target)), 400, target);
      expect(problem.errors).toEqual([{ parameter, message: 'must be true, 1 or yes, or false, 0 or no' }]);
    }
  });
});

describe('taxonomy terms', () => {
  const terms = fixture('taxonomy_terms.json');

  it('top_only lists the terms without a parent; parent_id a term’s direct children', async () => {
    const top = terms.filter((term) => term.parent_id === undefined);
    expect(await listIds('/taxonomy_terms', { top_only: true })).toEqual(idsOf(top).sort());
    expect(await listIds('/taxonomy_terms', { top_only: 1 })).toEqual(idsOf(top).sort());
    expect(await listIds('/taxonomy_terms', { top_only: 0 })).toEqual(idsOf(terms).sort());
    const children = terms.filter((term) => term.parent_id === BASIC_NEEDS);
    expect(children.length).toBeGreaterThan(0);
    expect(await listIds('/taxonomy_terms', { parent_id: BASIC_NEEDS })).toEqual(idsOf(children).sort());
  });

  it('taxonomy_id lists one taxonomy’s terms, combining with top_only', async () => {
    const audiences = terms.filter((term) => term.taxonomy_id === AUDIENCES);
    expect(audiences).toHaveLength(7);
    expect(await listIds('/taxonomy_terms', { taxonomy_id: AUDIENCES })).toEqual(idsOf(audiences).sort());
    const topCategories = terms.filter(
      (term) => term.taxonomy_id === CATEGORIES && term.parent_id === undefined,
    );
    expect(await listIds('/taxonomy_terms', { taxonomy_id: CATEGORIES, top_only: true })).toEqual(
      idsOf(topCategories).sort(),
    );
  });
});

describe('modified_after', () => {
  const instants = () => records['/services'].map((service) => service.last_modified as string).sort();

  it('takes a date (midnight UTC) or a date-time with an offset, on or after the instant', async () => {
    const sinceDate = await listIds('/services', { modified_after: '2026-01-01' });
    expect(sinceDate).toHaveLength(32);
    for (const sameInstant of [
      '2026-01-01T00:00:00Z',
      '2026-01-01T01:00:00+01:00',
      '2025-12-31T19:00:00-0500',
      '2026-01-01T02:00:00+02',
    ]) {
      expect(await listIds('/services', { modified_after: sameInstant }), sameInstant).toEqual(sinceDate);
    }
    // On or after: a record modified exactly at the instant is kept, one millisecond later it is not.
    const instant = instants()[40]!;
    const later = new Date(Date.parse(instant) + 1).toISOString();
    const at = await listIds('/services', { modified_after: instant });
    const after = await listIds('/services', { modified_after: later });
    const modifiedAt = idsOf(records['/services'].filter((service) => service.last_modified === instant));
    expect(intersection(at, modifiedAt)).toEqual(modifiedAt.sort());
    expect(intersection(after, modifiedAt)).toEqual([]);
    expect(at.length - after.length).toBe(modifiedAt.length);
  });

  it('refuses what is not an ISO 8601 date or date-time with a zone, naming it', async () => {
    for (const value of [
      'yesterday',
      '2026-13-01',
      '2026-02-30',
      '2026-01-01T25:00:00Z',
      '2026-01-01T00:00:00', // no zone: which instant is meant is unknown
      '2026-01-01T00:00:00+2', // an offset's hours are two digits
      '2026-01-01T00:00:00+25',
      '01/02/2026',
      '1767225600000',
    ]) {
      for (const path of ['/services', '/service_at_locations']) {
        const target = `${path}?${new URLSearchParams({ modified_after: value })}`;
        const problem = await expectProblem(await fetch(url(target)), 400, target);
        expect(blamedParameters(problem)).toEqual(['modified_after']);
        // A real day at an impossible time, or in a zone no offset can be, is told apart from a bad day.
        if (/T25|\+25/.test(value)) expect(problem.errors?.[0]?.message, value).toMatch(/out of range/);
      }
    }
  });
});

describe('postcode and proximity', () => {
  const locationOf = (item: Item): LatLng | undefined => {
    const { latitude, longitude } = object(item.location);
    return typeof latitude === 'number' && typeof longitude === 'number'
      ? { latitude, longitude }
      : undefined;
  };

  it('finds services whose polygon, or postcode list, covers the postcode', async () => {
    // fixtures/README.md: 98118 lies in the Rainier Valley polygon of the Rainier Valley Food Pantry;
    // 98125 is listed in the "North Seattle" area of the Northgate Walk-in Nurse Clinic.
    const polygon = await client.allItems('/service_at_locations', { postcode: '98118' });
    expect(idsOf(polygon)).toContain('4a0098fe-07a6-523d-a7dd-7dd24d3943af');
    const listed = await client.allItems('/service_at_locations', { postcode: '98125' });
    const names = listed.map((item) => object(item.service).name);
    expect(names).toEqual(
      expect.arrayContaining(['Northgate Walk-in Nurse Clinic', 'Family Rent Assistance Fund']),
    );
    // Postcodes are compared without spaces and case.
    expect(await listIds('/service_at_locations', { postcode: ' 981 18 ' })).toEqual(idsOf(polygon));
    // A ZIP+4 code lies in its ZIP: areas listing the ZIP cover it, as polygons around its centroid do.
    for (const zipPlus4 of ['98125-1234', '98125 1234']) {
      expect(await listIds('/service_at_locations', { postcode: zipPlus4 })).toEqual(idsOf(listed));
    }
  });

  it('keeps only the results without service-area data for an unknown postcode', async () => {
    const unknown = await listIds('/service_at_locations', { postcode: UNKNOWN_POSTCODE });
    const uncovered = expectedIds('/service_at_locations', (sal) =>
      coversPostcode(sal, 'no postcode at all'),
    );
    expect(unknown).toEqual(uncovered);
    expect(unknown.length).toBeLessThan(records['/service_at_locations'].length);
  });

  for (const [postcode, proximity] of [
    ['98118', 5000],
    ['98118', 50_000],
    ['98125', 3000],
    ['02128', 8000],
  ] as const) {
    it(`postcode=${postcode}&proximity=${proximity}: covering results within the distance, nearest first`, async () => {
      const centroid = zipCentroid(postcode)!;
      const items = await client.allItems('/service_at_locations', { postcode, proximity });
      const distances = items.map((item) => greatCircleMetres(centroid, locationOf(item)!));
      expect(items.length).toBeGreaterThan(0);
      for (const [index, distance] of distances.entries()) {
        expect(distance, String(items[index]!.id)).toBeLessThanOrEqual(proximity * (1 + 1e-9));
        if (index > 0) expect(distance).toBeGreaterThanOrEqual(distances[index - 1]! - 1e-6);
      }
      // Complete: every covering result with a location within the distance is there (results within a
      // metre of the edge are left out of the comparison, where rounding may fall either way).
      const clearOfTheEdge = (item: Item) => {
        const at = locationOf(item);
        return at === undefined || Math.abs(greatCircleMetres(centroid, at) - proximity) > 1;
      };
      const expected = records['/service_at_locations'].filter((item) => {
        const at = locationOf(item);
        return coversPostcode(item, postcode) && at && greatCircleMetres(centroid, at) <= proximity;
      });
      expect(idsOf(items.filter(clearOfTheEdge)).sort()).toEqual(
        idsOf(expected.filter(clearOfTheEdge)).sort(),
      );
      // Pages keep the nearest-first order.
      const paged: string[] = [];
      for (let page = 1; page <= Math.ceil(items.length / 2); page++) {
        const { contents, total_items } = await client.getJson(
          withQuery('/service_at_locations', { postcode, proximity, per_page: 2, page }),
        );
        expect(total_items).toBe(items.length);
        paged.push(...idsOf(contents));
      }
      expect(paged).toEqual(idsOf(items));
    });
  }

  it('refuses proximity with an unknown postcode, or without one, naming the parameter', async () => {
    for (const [query, parameter] of [
      [`postcode=${encodeURIComponent(UNKNOWN_POSTCODE)}&proximity=1000`, 'postcode'],
      ['proximity=1000', 'proximity'],
      ['postcode=98118&proximity=-5', 'proximity'],
      ['postcode=98118&proximity=0', 'proximity'],
      ['postcode=98118&proximity=far', 'proximity'],
      ['postcode=98118&proximity=1e9', 'proximity'],
    ] as const) {
      const target = `/service_at_locations?${query}`;
      expect(blamedParameters(await expectProblem(await fetch(url(target)), 400, target))).toEqual([
        parameter,
      ]);
    }
  });
});
