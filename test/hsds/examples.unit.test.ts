import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import {
  FullLocation,
  FullOrganization,
  FullService,
  FullServiceAtLocation,
  OrganizationPage,
  RootInfo,
  ServiceAtLocationPage,
  ServicePage,
  Taxonomy,
  TaxonomyPage,
  TaxonomyTerm,
  TaxonomyTermPage,
} from '../../src/hsds/index.ts';
import { hasSharedHsds, readSharedJson, skipReason } from './shared.ts';

// Every official example parses with the schema of the response it shows. All of them are also valid
// against the official schemas (checked in official-schemas.unit.test.ts), so none needs special handling.
const examples: [file: string, schema: z.ZodType][] = [
  ['base.json', RootInfo],
  ['service_full.json', FullService],
  ['organization_full.json', FullOrganization],
  ['service_at_location_full.json', FullServiceAtLocation],
  ['location.json', FullLocation],
  ['taxonomy.json', Taxonomy],
  ['taxonomy_term.json', TaxonomyTerm],
  ['service_list.json', ServicePage],
  ['organization_list.json', OrganizationPage],
  ['service_at_location_list.json', ServiceAtLocationPage],
  ['taxonomy_list.json', TaxonomyPage],
  ['taxonomy_term_list.json', TaxonomyTermPage],
];

describe.skipIf(!hasSharedHsds)(
  `official HSDS examples${hasSharedHsds ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    it.each(examples)('%s parses, unchanged', (file, schema) => {
      const example = readSharedJson(`examples/${file}`);
      const result = schema.safeParse(example);
      expect(result.error?.issues).toBeUndefined();
      expect(result.data).toEqual(example);
    });
  },
);
