import type { IndexDescription } from 'mongodb';

/** Every collection the application owns, by role. */
export const collectionNames = {
  services: 'services',
  organizations: 'organizations',
  serviceAtLocations: 'service_at_locations',
  taxonomies: 'taxonomies',
  taxonomyTerms: 'taxonomy_terms',
} as const;

export type CollectionName = (typeof collectionNames)[keyof typeof collectionNames];

const byId: IndexDescription = { key: { id: 1 }, name: 'id_1', unique: true };

/** The indexes each collection must have; created idempotently at start-up. */
export const collectionIndexes: Record<CollectionName, IndexDescription[]> = {
  services: [byId],
  organizations: [byId],
  service_at_locations: [byId],
  taxonomies: [byId],
  taxonomy_terms: [byId],
};
