import type { Db, IndexDescription } from 'mongodb';
import { entityTypes, foreignKeysOf, type EntityType, type RootEntity } from '../hsds/entities.ts';
import { ACCESS_ENTRIES, META_ENTRIES, USERS } from './protocol-records.ts';

/** Collection of the rows of one entity type (src/ingest/decompose.ts): the source of truth. */
export const rowCollection = (entity: EntityType) => `records.${entity}`;

/** The collection of nested documents the API serves for each root entity. */
export const documentCollection: Record<RootEntity, string> = {
  service: 'services',
  organization: 'organizations',
  service_at_location: 'service_at_locations',
  taxonomy: 'taxonomies',
  taxonomy_term: 'taxonomy_terms',
};

/** Whether the database holds any directory document (a service, an organization, a taxonomy, …). */
export async function hasDirectoryDocuments(db: Db): Promise<boolean> {
  for (const collection of Object.values(documentCollection))
    if ((await db.collection(collection).countDocuments({}, { limit: 1 })) > 0) return true;
  return false;
}

/** Changes written to rows whose nested documents are not yet rebuilt: finished by the next import. */
export const PENDING_COLLECTION = 'import.pending';

/** The sources imports have loaded for, with their last load (src/ingest/source-loads.ts). */
export const SOURCE_LOADS = 'import.sources';

/** Each harvested source's last successful harvest (src/harvest/harvest.ts). */
export const HARVESTS = 'import.harvests';

/** Which release's derivations the stored documents were made with (src/db/derivation-mark.ts). */
export const DERIVATION_MARK = 'directory.derivation';

/** When served records were deleted, for the 410s of their ids (src/db/tombstones.ts). */
export const TOMBSTONES = 'directory.tombstones';

/** The change feed: one entry per change to a served record, in commit order (src/db/change-feed.ts). */
export const CHANGES = 'directory.changes';

/** The change feed's clock: the last place taken, the last published, the oldest cursor still answered. */
export const CHANGE_CLOCK = 'directory.change_clock';

/** The counter of changes to what the directory serves (src/db/directory-generation.ts). */
export const DIRECTORY_GENERATION = 'directory.generation';

const ascending = (...fields: string[]): IndexDescription[] =>
  fields.map((field) => ({ key: { [field]: 1 }, name: `${field}_1` }));
const byId: IndexDescription = { key: { id: 1 }, name: 'id_1', unique: true };
/** Every nested document: by id, by the words of its text, and by the ids it embeds (for rebuilds). */
const documentIndexes = [byId, ...ascending('_search', '_deps')];
const classified = ascending('_terms', '_taxonomies');
/** `age` and the opening filters (src/directory/opening-filters.ts); only scheduled documents have keys. */
const eligibleAndOpen: IndexDescription[] = [
  ...ascending('_age_min', '_age_max'),
  { key: { _open_keys: 1 }, name: '_open_keys_1', sparse: true },
];

/** The indexes each collection must have; created idempotently at start-up. */
export const collectionIndexes: Record<string, IndexDescription[]> = {
  services: [
    ...documentIndexes,
    ...classified,
    ...ascending('organization.id', '_modified', '_input.fingerprint'),
    ...eligibleAndOpen,
    { key: { '_geo.areas': '2dsphere' }, name: '_geo.areas_2dsphere' },
  ],
  organizations: [...documentIndexes, ...classified],
  service_at_locations: [
    ...documentIndexes,
    ...classified,
    ...ascending('service.id', 'service.organization.id', '_modified', '_geo.postcodes'),
    ...eligibleAndOpen,
    { key: { '_geo.point': '2dsphere' }, name: '_geo.point_2dsphere' },
    { key: { '_geo.areas': '2dsphere' }, name: '_geo.areas_2dsphere' },
  ],
  taxonomies: documentIndexes,
  taxonomy_terms: [...documentIndexes, ...ascending('parent_id', 'taxonomy_id')],
  [TOMBSTONES]: ascending('deleted_at'),
  // A record's earlier entries, dropped once a later one is published. (Deletions past their retention
  // are found by reading the feed: a replace does that once, every write would keep an index for it.)
  // By id alone: ids are UUIDs in practice, and the resource is checked beside; a smaller index.
  [CHANGES]: ascending('id'),
  // The unique login index is what settles two concurrent creations of one login (E11000, then 409).
  [USERS]: [byId, { key: { login: 1 }, name: 'login_1', unique: true }],
  [ACCESS_ENTRIES]: [byId, ...ascending('user_id')],
  // Sparse: a row has one or two of its entity's foreign keys, and a lookup is always by a parent's id;
  // only the rows of records (not what records nest) name their sources.
  ...Object.fromEntries(
    entityTypes.map((entity) => [
      rowCollection(entity),
      ascending(...foreignKeysOf(entity), '_sources').map((index) => ({ ...index, sparse: true })),
    ]),
  ),
  // Meta entries: by id, newest first (the list order), and the Waiting ones the import sweep looks for.
  [META_ENTRIES]: [
    byId,
    { key: { recorded_at: -1, id: -1 }, name: 'recorded_at_-1_id_-1' },
    ...ascending('status'),
  ],
};
