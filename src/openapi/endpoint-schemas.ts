import * as z from 'zod';
import type { Endpoint } from '../directory/endpoints.ts';
import type { ParameterName } from '../directory/list-params.ts';
import {
  FullOrganization,
  FullService,
  FullServiceAtLocation,
  IsoDateTime,
  OrganizationListItem,
  OrganizationPage,
  OrganizationWithServiceIds,
  page,
  ServiceAtLocationListItem,
  ServiceAtLocationPage,
  ServiceListItem,
  ServicePage,
  Taxonomy,
  TaxonomyListItem,
  TaxonomyPage,
  TaxonomyTerm,
  TaxonomyTermListItem,
  TaxonomyTermPage,
  Uuid,
} from '../hsds/index.ts';

/** What one core resource answers with, for its list and its single records. */
export interface EndpointSchemas {
  /** A list item, as a page and `format=ndjson` list it. */
  item: z.ZodType;
  page: z.ZodType;
  /** GET {path}/{id}; also each item of a list with `full=true`. */
  record: z.ZodType;
  /** A page of records, for the endpoints that take `full`. */
  fullPage?: z.ZodType;
  /** Query parameters GET {path}/{id} takes besides the id (as directory/record-handler.ts parses them). */
  recordParameters: readonly ParameterName[];
}

/** An item of GET /services?minimal=true (built by directory/list-handler.ts). */
export const MinimalService = z
  .object({
    id: Uuid.describe('Unique identifier of the service.'),
    modified_date: IsoDateTime.describe('When the service last changed (its last_modified).').optional(),
  })
  .describe('A service by id and modification time, as minimal=true lists it.');

/** An organization as GET /organizations/{id} and full lists serve it: services by id unless `full_service`. */
export const OrganizationRecord = z
  .union([OrganizationWithServiceIds, FullOrganization])
  .describe('An organization fully nested; its services by id, or fully nested with full_service=true.');

export const FullServicePage = page(FullService);
export const FullOrganizationPage = page(OrganizationRecord);
export const FullServiceAtLocationPage = page(FullServiceAtLocation);
/** Taxonomies and their terms with full=true: each whole, its metadata included, as its single record. */
export const FullTaxonomyPage = page(Taxonomy);
export const FullTaxonomyTermPage = page(TaxonomyTerm);

export const endpointSchemas: Record<Endpoint['entity'], EndpointSchemas> = {
  service: {
    item: ServiceListItem,
    page: ServicePage,
    record: FullService,
    fullPage: FullServicePage,
    recordParameters: [],
  },
  organization: {
    item: OrganizationListItem,
    page: OrganizationPage,
    record: OrganizationRecord,
    fullPage: FullOrganizationPage,
    recordParameters: ['full_service'],
  },
  service_at_location: {
    item: ServiceAtLocationListItem,
    page: ServiceAtLocationPage,
    record: FullServiceAtLocation,
    fullPage: FullServiceAtLocationPage,
    recordParameters: [],
  },
  taxonomy: {
    item: TaxonomyListItem,
    page: TaxonomyPage,
    record: Taxonomy,
    fullPage: FullTaxonomyPage,
    recordParameters: [],
  },
  taxonomy_term: {
    item: TaxonomyTermListItem,
    page: TaxonomyTermPage,
    record: TaxonomyTerm,
    fullPage: FullTaxonomyTermPage,
    recordParameters: [],
  },
};
