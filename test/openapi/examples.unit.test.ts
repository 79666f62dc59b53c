import { describe, expect, it } from 'vitest';
import { defaultDocument } from './default-document.ts';
import { hasSharedHsds, readSharedJson, skipReason } from '../hsds/shared.ts';
import { documentValidator } from './document-validator.ts';

const document = defaultDocument('http://localhost');
const validate = documentValidator(document);

/** Each official example, the component schema of what it shows, and the operation that serves it. */
const examples: [file: string, component: string, path?: string][] = [
  ['base.json', 'RootInfo', '/'],
  ['service_full.json', 'Service', '/services/{id}'],
  ['organization_full.json', 'FullOrganization', '/organizations/{id}'],
  ['service_at_location_full.json', 'FullServiceAtLocation', '/service_at_locations/{id}'],
  ['location.json', 'Location'],
  ['taxonomy.json', 'Taxonomy', '/taxonomies/{id}'],
  ['taxonomy_term.json', 'TaxonomyTerm', '/taxonomy_terms/{id}'],
  ['service_list.json', 'ServicePage', '/services'],
  ['organization_list.json', 'OrganizationPage', '/organizations'],
  ['service_at_location_list.json', 'ServiceAtLocationPage', '/service_at_locations'],
  ['taxonomy_list.json', 'TaxonomyPage', '/taxonomies'],
  ['taxonomy_term_list.json', 'TaxonomyTermPage', '/taxonomy_terms'],
];

const okSchema = (path: string) => [
  'paths',
  path,
  'get',
  'responses',
  '200',
  'content',
  'application/json',
  'schema',
];

describe.skipIf(!hasSharedHsds)(
  `the document's schemas and the official HSDS examples${hasSharedHsds ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    it.each(examples)('%s is a valid %s', (file, component) => {
      const result = validate(['components', 'schemas', component], readSharedJson(`examples/${file}`));
      expect(result.errors).toEqual([]);
    });

    it.each(examples.filter(([, , path]) => path !== undefined))(
      '%s is a valid 200 of GET %s',
      (file, _component, path) => {
        expect(validate(okSchema(path!), readSharedJson(`examples/${file}`)).errors).toEqual([]);
      },
    );

    it('rejects an example that breaks the model', () => {
      const service = readSharedJson('examples/service_full.json') as Record<string, unknown>;
      const { name: _name, ...nameless } = service;
      expect(validate(['components', 'schemas', 'Service'], nameless).valid).toBe(false);
      expect(validate(['components', 'schemas', 'Service'], { ...service, status: 'open' }).valid).toBe(
        false,
      );
      const phones = [{ id: 'not-a-uuid', number: '555' }];
      expect(validate(['components', 'schemas', 'Service'], { ...service, phones }).valid).toBe(false);
    });
  },
);
