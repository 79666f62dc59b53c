import type { Endpoint } from '../directory/endpoints.ts';
import type { RootEntity } from '../hsds/entities.ts';

const words = (name: string) => name.replace(/_/g, ' ');
const pascalCase = (name: string) =>
  name.replace(/(^|_)([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase());

/**
 * The operationIds of the official HSDS 3.0 OpenAPI document, so that clients generated from it call our
 * operations by the same names. It swaps those of /taxonomy_terms and /taxonomy_terms/{id}
 * (openreferral/specification#589): each here gets the one that says what it does.
 */
const officialIds: Record<RootEntity, { list: string; record: string }> = {
  service: { list: 'getPaginatedListOfServices', record: 'getFullyNestedServiceById' },
  organization: { list: 'getPaginatedListOfOrganizations', record: 'getOrganizationById' },
  service_at_location: {
    list: 'getPaginatedListOfServiceAtLocation',
    record: 'getServiceAtLocationWithNestedDataById',
  },
  taxonomy: { list: 'getPaginatedListOfTaxonomies', record: 'getTaxonomyById' },
  taxonomy_term: { list: 'getPaginatedListOfTaxonomyTerms', record: 'getTaxonomyTermById' },
};

/**
 * What an endpoint's operations are called: its tag, words for one record and many, the official ids of
 * its GET operations, and an identifier for many (for the POST list, which the official document lacks).
 */
export function endpointNames(endpoint: Endpoint) {
  const collection = endpoint.path.slice(1);
  return {
    tag: collection,
    one: words(endpoint.entity),
    many: words(collection),
    manyId: pascalCase(collection),
    listId: officialIds[endpoint.entity].list,
    recordId: officialIds[endpoint.entity].record,
  };
}
