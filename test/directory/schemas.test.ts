/*
 * Every response of the core read protocol, for every record of the sample directory, validates against
 * the official HSDS 3.0 schemas: single records against the compiled full schemas, list items against
 * the compiled list-item schemas (or the full ones with full=true), NDJSON lines likewise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import {
  directoryClient,
  idsOf,
  startSampleApp,
  withQuery,
  type DirectoryClient,
  type Item,
  type ListPath,
} from '../support/directory-client.ts';
import {
  loadOfficialSchemas,
  officialSchemasMissing,
  officialSchemasPresent,
  schemaErrors,
  type OfficialSchemaName,
  type OfficialSchemas,
} from '../support/official-schemas.ts';

if (!officialSchemasPresent) console.warn(`Skipping tests: ${officialSchemasMissing}`);

let app: TestApp;
let client: DirectoryClient;
let schemas: OfficialSchemas;
beforeAll(async () => {
  if (!officialSchemasPresent) return;
  schemas = loadOfficialSchemas();
  app = await startSampleApp();
  client = directoryClient(app.url);
}, 120_000);
afterAll(async () => app?.close());

/** Asserts each item is valid, naming the request and the item when one is not. */
function expectValid(schema: OfficialSchemaName, items: Item[], source: string) {
  expect(items.length, `${source}: nothing to validate`).toBeGreaterThan(0);
  for (const item of items) {
    expect(schemaErrors(schemas[schema], item), `${source} item ${String(item.id)} vs ${schema}`).toEqual([]);
  }
}

/** Organizations without `full_service` carry their services as ids only (spec 4.4). */
function expectServiceIdsOnly(organizations: Item[], source: string) {
  for (const organization of organizations) {
    expect(organization.services, `${source} ${String(organization.id)}`).toEqual(expect.any(Array));
    for (const service of organization.services as Item[]) {
      expect(service, `${source} ${String(organization.id)}`).toEqual({ id: expect.any(String) });
    }
  }
}

/** For each list endpoint: the schema of its items, and of its items with `full=true`. */
const itemSchemas: { path: ListPath; item: OfficialSchemaName; full: OfficialSchemaName }[] = [
  { path: '/services', item: 'service_list', full: 'service' },
  { path: '/organizations', item: 'organization_list', full: 'organization_with_service_ids' },
  { path: '/service_at_locations', item: 'service_at_location_list', full: 'service_at_location' },
  // Taxonomies and terms take no `full`: their items are already whole.
  { path: '/taxonomies', item: 'taxonomy', full: 'taxonomy' },
  { path: '/taxonomy_terms', item: 'taxonomy_term', full: 'taxonomy_term' },
];

describe.skipIf(!officialSchemasPresent)('official HSDS schemas', () => {
  describe('single records', () => {
    it('serves every service as a valid compiled/service.json', async () => {
      const ids = idsOf(await client.allItems('/services'));
      expect(ids).toHaveLength(72);
      for (const id of ids) {
        expectValid('service', [await client.getJson<Item>(`/services/${id}`)], `/services/${id}`);
      }
    });

    it('serves every organization with full services as a valid compiled/organization.json', async () => {
      // parameters.test.ts checks which organizations are listed; every one listed is checked here.
      for (const id of idsOf(await client.allItems('/organizations'))) {
        const target = `/organizations/${id}?full_service=true`;
        expectValid('organization', [await client.getJson<Item>(target)], target);
      }
    });

    it('serves every organization with service ids: valid without `services`, which hold ids only', async () => {
      for (const id of idsOf(await client.allItems('/organizations'))) {
        const organization = await client.getJson<Item>(`/organizations/${id}`);
        expectValid('organization_with_service_ids', [organization], `/organizations/${id}`);
        expectServiceIdsOnly([organization], `/organizations/${id}`);
        // The compiled schema's `services` items require name and status, which ids-only items lack.
        if ((organization.services as Item[]).length > 0) {
          expect(schemaErrors(schemas.organization, organization)).not.toEqual([]);
        }
      }
    });

    it('serves every service at location as a valid compiled/service_at_location.json', async () => {
      const ids = idsOf(await client.allItems('/service_at_locations'));
      expect(ids).toHaveLength(101);
      for (const id of ids) {
        const target = `/service_at_locations/${id}`;
        expectValid('service_at_location', [await client.getJson<Item>(target)], target);
      }
    });

    it('serves every taxonomy and taxonomy term as valid taxonomy.json and taxonomy_term.json', async () => {
      const taxonomies = idsOf(await client.allItems('/taxonomies'));
      const terms = idsOf(await client.allItems('/taxonomy_terms'));
      expect([taxonomies.length, terms.length]).toEqual([2, 49]);
      for (const id of taxonomies) {
        expectValid('taxonomy', [await client.getJson<Item>(`/taxonomies/${id}`)], `/taxonomies/${id}`);
      }
      for (const id of terms) {
        const target = `/taxonomy_terms/${id}`;
        expectValid('taxonomy_term', [await client.getJson<Item>(target)], target);
      }
    });
  });

  describe('list items', () => {
    for (const { path, item } of itemSchemas) {
      it(`serves every item of every page of ${path} as a valid ${item}`, async () => {
        // A small page size, so that several pages (and the last, partial one) are all checked.
        for (let page = 1; ; page++) {
          const target = withQuery(path, { per_page: 10, page });
          const { contents, last_page } = await client.getJson(target);
          expectValid(item, contents, target);
          if (last_page) break;
        }
      });
    }

    for (const { path, full } of itemSchemas.filter(({ path }) => path !== '/taxonomies')) {
      it(`serves ${path}?full=true items as valid ${full}`, async () => {
        const items = await client.allItems(path, { full: true });
        expectValid(full, items, `${path}?full=true`);
        if (path === '/organizations') expectServiceIdsOnly(items, `${path}?full=true`);
      });
    }

    it('serves /organizations?full=true&full_service=true items as valid compiled/organization.json', async () => {
      const target = '/organizations?full=true&full_service=true';
      expectValid(
        'organization',
        await client.allItems('/organizations', { full: true, full_service: true }),
        target,
      );
    });
  });

  describe('NDJSON lines', () => {
    for (const { path, item, full } of itemSchemas) {
      it(`streams ${path} lines as valid ${item}, and with full=true as valid ${full}`, async () => {
        expectValid(item, await client.ndjsonItems(`${path}?format=ndjson`), `${path}?format=ndjson`);
        const target = `${path}?format=ndjson&full=true`;
        const fullItems = await client.ndjsonItems(target);
        expectValid(full, fullItems, target);
        if (path === '/organizations') expectServiceIdsOnly(fullItems, target);
      });
    }

    it('streams /organizations?full=true&full_service=true lines as valid compiled/organization.json', async () => {
      const target = '/organizations?format=ndjson&full=true&full_service=true';
      expectValid('organization', await client.ndjsonItems(target), target);
    });
  });
});
