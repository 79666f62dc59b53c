import type { z } from 'zod';
import {
  FullOrganization,
  FullService,
  FullServiceAtLocation,
  Taxonomy,
  TaxonomyTerm,
} from '../hsds/index.ts';
import { rootEntities, type RootEntity } from '../hsds/entities.ts';

/** The kinds of record an import takes: the nested forms the API serves. */
export type RecordType = RootEntity;

export const recordTypes: readonly RecordType[] = rootEntities;

/** The schema a record of each type must satisfy. */
export const recordSchema: Record<RecordType, z.ZodType> = {
  service: FullService,
  organization: FullOrganization,
  service_at_location: FullServiceAtLocation,
  taxonomy: Taxonomy,
  taxonomy_term: TaxonomyTerm,
};

const ORGANIZATION_ONLY = [
  'services',
  'locations',
  'programs',
  'organization_identifiers',
  'website',
  'additional_websites',
  'tax_status',
  'tax_id',
  'year_incorporated',
  'legal_status',
  'logo',
  'uri',
  'parent_organization_id',
];
const TERM_ONLY = ['taxonomy_detail', 'taxonomy_id', 'parent_id', 'code', 'term_uri', 'taxonomy', 'language'];
const TAXONOMY_FIELDS = new Set(['id', 'name', 'description', 'uri', 'version', 'metadata']);

/**
 * Tells a record's type from its shape: `status` is required on services only; a service at location
 * nests a service or a location; taxonomy terms and organizations have fields nothing else has. Returns
 * undefined when the shape does not say (e.g. `{id, name, description, uri}` could be either; the caller
 * asks for `--type`).
 */
export function detectRecordType(record: Record<string, unknown>): RecordType | undefined {
  const has = (field: string) => record[field] !== undefined;
  if (has('status')) return 'service';
  if (has('service') || has('location') || has('service_id') || has('location_id'))
    return 'service_at_location';
  if (TERM_ONLY.some(has)) return 'taxonomy_term';
  // A taxonomy's fields are a subset of an organization's; `version` is the one only taxonomies have.
  const taxonomyShaped = Object.keys(record).every((field) => TAXONOMY_FIELDS.has(field));
  if (taxonomyShaped) return has('version') ? 'taxonomy' : undefined;
  return ORGANIZATION_ONLY.some(has) ? 'organization' : undefined;
}
