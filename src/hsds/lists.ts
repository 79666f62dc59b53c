import { FullOrganization, FullService, FullServiceAtLocation } from './full.ts';
import { oneToOne } from './one_to_one.ts';
import { page } from './page.ts';
import { Taxonomy } from './taxonomy.ts';
import { TaxonomyTerm } from './taxonomy_term.ts';

/*
 * The items of the core list endpoints (spec part 4.4): one-to-one fields only, plus the one-to-one
 * relations the spec names. All are cut from the full shapes, so a field added there appears here.
 */

/** An item of GET /services: the service with its organization and program, no nested arrays. */
export const ServiceListItem = oneToOne(FullService)
  .extend({
    organization: oneToOne(FullService.shape.organization.unwrap())
      .optional()
      .describe('The organization providing the service, without nested arrays.'),
    program: oneToOne(FullService.shape.program.unwrap())
      .optional()
      .describe('The program the service belongs to, without nested arrays.'),
  })
  .describe('A service in a list.');

/** An item of GET /organizations: the organization's one-to-one fields. */
export const OrganizationListItem = oneToOne(FullOrganization).describe('An organization in a list.');

/** An item of GET /service_at_locations: id and description, the location and the service (as listed). */
export const ServiceAtLocationListItem = oneToOne(FullServiceAtLocation)
  .extend({
    location: oneToOne(FullServiceAtLocation.shape.location.unwrap())
      .optional()
      .describe('The location, without nested arrays.'),
    service: ServiceListItem.optional().describe('The service with its organization and program.'),
  })
  .describe('A service at a location in a list.');

/** An item of GET /taxonomies. */
export const TaxonomyListItem = oneToOne(Taxonomy).describe('A taxonomy in a list.');

/** An item of GET /taxonomy_terms: the term with the taxonomy it belongs to. */
export const TaxonomyTermListItem = oneToOne(TaxonomyTerm)
  .extend({
    taxonomy_detail: TaxonomyListItem.optional().describe('The taxonomy the term belongs to.'),
  })
  .describe('A taxonomy term in a list.');

export const ServicePage = page(ServiceListItem);
export const OrganizationPage = page(OrganizationListItem);
export const ServiceAtLocationPage = page(ServiceAtLocationListItem);
export const TaxonomyPage = page(TaxonomyListItem);
export const TaxonomyTermPage = page(TaxonomyTermListItem);
