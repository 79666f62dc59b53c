/*
 * The list filters are answered from indexes, not by scanning a collection (issue #4: search "answered
 * from an index"): the explain of each filter the endpoints build, sorted by id as pages are, reads the
 * index made for it.
 */
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentCollection } from '../../src/db/collections.ts';
import { sharedFilter, type FilterParameters } from '../../src/directory/list-filters.ts';
import type { TestApp } from '../support/app.ts';
import { startSampleApp } from '../support/directory-client.ts';
import { planOf as planOfPage } from '../support/query-plan.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startSampleApp();
}, 120_000);
afterAll(async () => app?.close());

const FOOD_PANTRIES = 'a4bf1ef4-fdab-5edf-b51f-300eace0ed79';
const AUDIENCES = '156b553c-9d11-59fe-8298-4f3261900cda';
const ORGANIZATION = '10f8bcb3-f882-56db-84f7-645221c4be05';

const planOf = (collection: string, filter: Document) => planOfPage(app.database.db, collection, filter);

describe('list filters', () => {
  it.each<[string, FilterParameters, string]>([
    ['search', { search: 'food pantry' }, '_search_1'],
    // Word forms are matched by stems stored with each document: still one indexed term each.
    ['search of word forms', { search: 'shelters immigrants Seattle' }, '_search_1'],
    ['taxonomy_term_id', { taxonomy_term_id: FOOD_PANTRIES }, '_terms_1'],
    ['taxonomy_id', { taxonomy_id: AUDIENCES }, '_taxonomies_1'],
    ['organization_id', { organization_id: ORGANIZATION }, 'organization.id_1'],
    ['modified_after', { modified_after: new Date('2020-01-01T00:00:00Z') }, '_modified_1'],
  ])('read the index of %s on /services', async (_name, parameters, index) => {
    const filter = await sharedFilter(app.database.db, parameters, { organizationId: 'organization.id' });
    const plan = await planOf(documentCollection.service, filter);
    expect(plan.collectionScan).toBe(false);
    expect(plan.indexes).toContain(index);
  });

  it.each(Object.values(documentCollection))(
    'answer search on %s from its search index',
    async (collection) => {
      const filter = await sharedFilter(app.database.db, { search: 'food' }, {});
      const plan = await planOf(collection, filter);
      expect(plan.collectionScan).toBe(false);
      expect(plan.indexes).toContain('_search_1');
    },
  );
});
