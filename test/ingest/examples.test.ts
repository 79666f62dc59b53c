import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedRecord } from '../support/import.ts';
import { documentCollection } from '../../src/db/collections.ts';
import { rootEntities, type EntityType, type RootEntity } from '../../src/hsds/entities.ts';
import { rowCollection } from '../../src/db/collections.ts';
import { importRecords } from '../../src/ingest/import.ts';
import type { ImportReport } from '../../src/ingest/report.ts';
import { readInputPath } from '../../src/ingest/sources/input-path.ts';
import { indexedDatabases } from '../support/database.ts';
import { withoutGeneratedFields } from './generated-fields.ts';
import type { Json } from '../../src/json.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const sharedHsds = resolve(repoRoot, '../shared/hsds');
const examples = resolve(sharedHsds, 'examples');
const hasExamples = existsSync(examples);
if (!hasExamples) console.warn(`Skipping the HSDS example import tests: ${examples} not found`);

const FULL_EXAMPLES = ['service_full.json', 'organization_full.json', 'service_at_location_full.json'];
const readExample = (file: string): Json => JSON.parse(readFileSync(resolve(examples, file), 'utf8'));

const databases = indexedDatabases();
beforeAll(async () => {
  if (hasExamples) await databases.start();
});
afterAll(() => databases.close());
const freshDatabase = () => databases.fresh();

async function importPaths(db: Db, paths: string[]): Promise<ImportReport> {
  async function* records() {
    for (const path of paths) yield* readInputPath(path);
  }
  return importRecords(db, records());
}

/** A record as served, read from its stored document. */
const storedDocument = (db: Db, root: RootEntity, id: unknown) =>
  servedRecord(db, documentCollection[root], id as string) as Promise<Json | null>;

const storedDocuments = async (db: Db, root: RootEntity) => {
  const ids = await db.collection(documentCollection[root]).distinct('id');
  return new Map(
    await Promise.all(ids.map(async (id: string) => [id, (await storedDocument(db, root, id))!] as const)),
  );
};

/** The document without one field, given as a dotted path that runs through every item of an array. */
function omitPath(value: unknown, path: string): unknown {
  if (Array.isArray(value)) return value.map((item) => omitPath(item, path));
  if (value === null || typeof value !== 'object') return value;
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const { [head]: field, ...others } = value as Json;
  if (rest.length === 0 || field === undefined) return others;
  return { ...others, [head]: omitPath(field, rest.join('.')) };
}

describe.skipIf(!hasExamples)(
  `importing the official HSDS examples${hasExamples ? '' : ` (skipped: ${examples} not found)`}`,
  () => {
    it.each([
      ['service_full.json', 'service'],
      ['service_at_location_full.json', 'service_at_location'],
    ] as const)('%s reads back as the example', async (file, root) => {
      const db = await freshDatabase();
      const example = readExample(file);
      const report = await importPaths(db, [resolve(examples, file)]);
      expect(report.rejections).toEqual([]);
      const stored = await storedDocument(db, root, example.id);
      expect(withoutGeneratedFields(stored, example)).toEqual(example);
    });

    it('organization_full.json reads back as the example, its services from the services collection', async () => {
      const db = await freshDatabase();
      const { services, ...organization } = readExample('organization_full.json');
      const report = await importPaths(db, [resolve(examples, 'organization_full.json')]);
      expect(report.rejections).toEqual([]);

      const stored = await storedDocument(db, 'organization', organization.id);
      expect(withoutGeneratedFields(stored, organization)).toEqual(organization);
      expect(services).toHaveLength(1);
      for (const service of services as Json[]) {
        // Inside the organization example a service leaves out its organization: the one around it.
        const { organization: ofService, ...storedService } = (await storedDocument(
          db,
          'service',
          service.id,
        ))!;
        expect((ofService as Json).id).toBe(organization.id);
        expect(withoutGeneratedFields(storedService, service)).toEqual(service);
      }
    });

    /*
     * The official CSV example (examples/csv/) and the JSON examples describe the same service, but the
     * CSV tables do not link everything the JSON examples nest, and give one field more. These are
     * differences in the official data, not in the import (the last test below checks each against the
     * rows the CSV import stored):
     *
     * 1. attributes.csv: link_id f28dd44b-0c4d-479f-8e90-4c52219a8b3c, which is no entity in the example,
     *    where the JSON nests the attribute in service ac148810-…: the CSV service has no attributes.
     * 2. metadata.csv: resource_id 38960354-e7d2-4cfa-a368-820f729d6ccf, likewise no entity, where the JSON
     *    nests the metadata in the service: the CSV service has no metadata.
     * 3. contacts.csv: organization_id ae67a707-5893-4225-b0b1-320ab9cb596b (the organization is
     *    d9d5e0f5-…) and service_at_location_id 93eaf18d-1cd2-4ec7-bffb-3c9172ee5070 (the service at
     *    location is e94c9f38-…): the CSV organization and service at location have no contacts; the
     *    contact's service_id and location_id do match, so the service and the location list it.
     * 4. locations.csv: organization_id 985e4a42-bd9f-4edc-911d-0243a4640aca: the CSV organization has no
     *    locations (the service at location still reaches the location by its location_id).
     * 5. taxonomy_terms.csv: taxonomy_id 07ff6aee-a219-438c-b694-d2fcb6c5373b, where the JSON term's
     *    taxonomy_detail is taxonomy 5c4d79d7-… (the one taxonomies.csv holds): the CSV term has no
     *    taxonomy_detail.
     * 6. organizations.csv gives tax_id "tax_id"; no JSON example's organization has a tax_id.
     *
     * Apart from those, the nested documents are equal, modulo the fields the import generates (see
     * generated-fields.ts); link fields are left out on both sides, as the CSV gives them and the JSON
     * nesting makes them.
     */
    const officialDifferences: Record<RootEntity, string[]> = {
      service: [
        'attributes',
        'metadata',
        'organization.contacts',
        'organization.locations',
        'organization.tax_id',
        'service_at_locations.contacts',
      ],
      organization: ['contacts', 'locations', 'tax_id'],
      service_at_location: [
        'contacts',
        'service.attributes',
        'service.metadata',
        'service.organization.contacts',
        'service.organization.locations',
        'service.organization.tax_id',
      ],
      taxonomy: [],
      taxonomy_term: ['taxonomy_detail'],
    };

    describe('the CSV example and the JSON examples', () => {
      let fromCsv: Db;
      let fromJson: Db;
      let csvReport: ImportReport;

      beforeAll(async () => {
        fromCsv = await freshDatabase();
        fromJson = await freshDatabase();
        csvReport = await importPaths(fromCsv, [resolve(examples, 'csv')]);
        const jsonReport = await importPaths(
          fromJson,
          FULL_EXAMPLES.map((file) => resolve(examples, file)),
        );
        expect(jsonReport.rejections).toEqual([]);
      });

      it('load every CSV table, noting the one HSDS table we do not store without rejecting anything', () => {
        expect(csvReport.rejections).toEqual([]);
        expect(csvReport.rejected).toBe(0);
        expect(csvReport.warnings).toContainEqual(
          expect.stringMatching(
            /csv\/meta_table_descriptions\.csv: table meta_table_description holds no HSDS entity/,
          ),
        );
        expect(csvReport.inserted).toBe(20);
      });

      it.each(rootEntities)(
        'load to the same %s documents, apart from the listed differences',
        async (root) => {
          const csvDocuments = await storedDocuments(fromCsv, root);
          const jsonDocuments = await storedDocuments(fromJson, root);
          expect([...csvDocuments.keys()].sort()).toEqual([...jsonDocuments.keys()].sort());
          expect(csvDocuments.size).toBeGreaterThan(0);
          const comparable = (document: Json | undefined) =>
            officialDifferences[root].reduce(omitPath, withoutGeneratedFields(document));
          for (const [id, document] of csvDocuments) {
            expect(comparable(document), `${root} ${id}`).toEqual(comparable(jsonDocuments.get(id)));
          }
        },
      );

      it('differ as listed: the CSV rows carry those links and that field', async () => {
        const row = (entity: EntityType) => fromCsv.collection<Json>(rowCollection(entity)).findOne({});
        expect(await row('attribute')).toMatchObject({ link_id: 'f28dd44b-0c4d-479f-8e90-4c52219a8b3c' });
        expect(await row('metadata')).toMatchObject({ resource_id: '38960354-e7d2-4cfa-a368-820f729d6ccf' });
        expect(await row('contact')).toMatchObject({
          organization_id: 'ae67a707-5893-4225-b0b1-320ab9cb596b',
          service_at_location_id: '93eaf18d-1cd2-4ec7-bffb-3c9172ee5070',
          service_id: 'ac148810-d857-441c-9679-408f346de14b',
          location_id: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
        });
        expect(await row('location')).toMatchObject({
          organization_id: '985e4a42-bd9f-4edc-911d-0243a4640aca',
        });
        expect(await row('taxonomy_term')).toMatchObject({
          taxonomy_id: '07ff6aee-a219-438c-b694-d2fcb6c5373b',
        });
        expect(await row('taxonomy')).toMatchObject({ _id: '5c4d79d7-cc55-470e-9f1f-8cad074e4892' });
        expect(await row('organization')).toMatchObject({ tax_id: 'tax_id' });
        for (const file of FULL_EXAMPLES) expect(JSON.stringify(readExample(file))).not.toContain('"tax_id"');
      });
    });
  },
);
