/**
 * The HSDS entity graph: which field of which entity nests which other entity, and the foreign key that
 * ties them together in the tabular form. Decomposing nested records into rows, composing rows back into
 * nested documents, and finding what a change reaches all read this one table.
 */

export const entityTypes = [
  'service',
  'organization',
  'service_at_location',
  'location',
  'address',
  'accessibility',
  'contact',
  'phone',
  'language',
  'schedule',
  'service_area',
  'funding',
  'cost_option',
  'required_document',
  'capacity',
  'unit',
  'program',
  'organization_identifier',
  'link',
  'attribute',
  'taxonomy',
  'taxonomy_term',
  'metadata',
] as const;

export type EntityType = (typeof entityTypes)[number];

/**
 * `many`: the field holds an array of children whose row carries `foreignKey` = the parent's id.
 * `one`: the field holds one entity the parent's row refers to by `reference` (e.g. service.program_id).
 * Children linked generically (attributes, metadata) also record the parent's entity type in `kindKey`.
 */
export type Relation =
  | { field: string; kind: 'many'; entity: EntityType; foreignKey: string; kindKey?: string }
  | { field: string; kind: 'one'; entity: EntityType; reference: string };

const many = (field: string, entity: EntityType, foreignKey: string): Relation => ({
  field,
  kind: 'many',
  entity,
  foreignKey,
});
const one = (field: string, entity: EntityType, reference: string): Relation => ({
  field,
  kind: 'one',
  entity,
  reference,
});

/** Every HSDS object may carry attributes and metadata, linked by id and entity type. */
const annotations: Relation[] = [
  { field: 'attributes', kind: 'many', entity: 'attribute', foreignKey: 'link_id', kindKey: 'link_entity' },
  {
    field: 'metadata',
    kind: 'many',
    entity: 'metadata',
    foreignKey: 'resource_id',
    kindKey: 'resource_type',
  },
];

const owned = (foreignKey: string) => ({
  phones: many('phones', 'phone', foreignKey),
  schedules: many('schedules', 'schedule', foreignKey),
  contacts: many('contacts', 'contact', foreignKey),
  languages: many('languages', 'language', foreignKey),
  funding: many('funding', 'funding', foreignKey),
  serviceAreas: many('service_areas', 'service_area', foreignKey),
});

const byService = owned('service_id');
const byOrganization = owned('organization_id');
const byLocation = owned('location_id');
const bySal = owned('service_at_location_id');

export const relations: Record<EntityType, Relation[]> = {
  service: [
    byService.phones,
    byService.schedules,
    byService.serviceAreas,
    many('service_at_locations', 'service_at_location', 'service_id'),
    byService.languages,
    one('organization', 'organization', 'organization_id'),
    byService.funding,
    many('cost_options', 'cost_option', 'service_id'),
    one('program', 'program', 'program_id'),
    many('required_documents', 'required_document', 'service_id'),
    byService.contacts,
    many('capacities', 'capacity', 'service_id'),
    many('additional_urls', 'link', 'service_id'),
    ...annotations,
  ],
  organization: [
    many('additional_websites', 'link', 'organization_id'),
    byOrganization.funding,
    byOrganization.contacts,
    byOrganization.phones,
    many('locations', 'location', 'organization_id'),
    many('programs', 'program', 'organization_id'),
    many('organization_identifiers', 'organization_identifier', 'organization_id'),
    many('services', 'service', 'organization_id'),
    ...annotations,
  ],
  service_at_location: [
    bySal.contacts,
    bySal.phones,
    bySal.schedules,
    bySal.serviceAreas,
    one('location', 'location', 'location_id'),
    one('service', 'service', 'service_id'),
    ...annotations,
  ],
  location: [
    byLocation.languages,
    many('addresses', 'address', 'location_id'),
    byLocation.contacts,
    many('accessibility', 'accessibility', 'location_id'),
    byLocation.phones,
    byLocation.schedules,
    ...annotations,
  ],
  contact: [many('phones', 'phone', 'contact_id'), ...annotations],
  phone: [many('languages', 'language', 'phone_id'), ...annotations],
  capacity: [one('unit', 'unit', 'unit_id'), ...annotations],
  attribute: [one('taxonomy_term', 'taxonomy_term', 'taxonomy_term_id'), ...annotations.slice(1)],
  taxonomy_term: [one('taxonomy_detail', 'taxonomy', 'taxonomy_id'), ...annotations.slice(1)],
  address: annotations,
  accessibility: annotations,
  language: annotations,
  schedule: annotations,
  service_area: annotations,
  funding: annotations,
  cost_option: annotations,
  required_document: annotations,
  unit: [],
  program: annotations,
  organization_identifier: annotations,
  link: [],
  taxonomy: annotations.slice(1),
  metadata: [],
};

/** The entities the API serves as nested documents, each from its own collection. */
export const rootEntities = [
  'service',
  'organization',
  'service_at_location',
  'taxonomy',
  'taxonomy_term',
] as const;
export type RootEntity = (typeof rootEntities)[number];

export const isRootEntity = (entity: EntityType): entity is RootEntity =>
  (rootEntities as readonly string[]).includes(entity);

/**
 * What a nested document of each root leaves out, to stop the nesting where it would loop back or grow
 * without bound: an organization document lists no services (they are joined at read time, so a large
 * provider cannot outgrow MongoDB's 16 MB document limit).
 */
export const rootExclusions: Record<RootEntity, string[]> = {
  service: [],
  organization: ['services'],
  service_at_location: [],
  taxonomy: [],
  taxonomy_term: [],
};

/** A key naming one entity anywhere in the graph, e.g. `location:4f1…`. */
export const entityKey = (entity: EntityType, id: string) => `${entity}:${id}`;

/** Foreign keys a row of `entity` may carry, for the indexes that find children by parent. */
export function foreignKeysOf(entity: EntityType): string[] {
  const keys = new Set<string>();
  for (const parentRelations of Object.values(relations)) {
    for (const relation of parentRelations) {
      if (relation.kind === 'many' && relation.entity === entity) keys.add(relation.foreignKey);
    }
  }
  return [...keys];
}

/**
 * Fields naming a parent of the same kind in a hierarchy (a term's broader term, an organization's parent
 * organization): references the graph does not nest, served as the ids given.
 */
const hierarchyReferences: Partial<Record<EntityType, string[]>> = {
  taxonomy_term: ['parent_id'],
  organization: ['parent_organization_id'],
};

/**
 * Fields of a row naming one entity it shows (`service.program_id`, `service_at_location.location_id`, …)
 * or its parent in a hierarchy (`taxonomy_term.parent_id`).
 */
export const referencesOf = (entity: EntityType): string[] => [
  ...relations[entity].flatMap((relation) => (relation.kind === 'one' ? [relation.reference] : [])),
  ...(hierarchyReferences[entity] ?? []),
];

/**
 * The entities that several records may show: the roots, and what a record refers to by id (a service's
 * organization and program, a service at location's location, an attribute's taxonomy term, a capacity's
 * unit). Each is stored once, in a row of its own, and a change to it reaches every document showing it.
 * The others (phones, schedules, contacts, addresses, …) are owned by the record nesting them and kept
 * inside its row (see src/ingest/decompose.ts).
 */
export const sharedEntities: ReadonlySet<EntityType> = new Set<EntityType>([
  ...rootEntities,
  ...entityTypes.flatMap((entity) =>
    relations[entity].flatMap((relation) => (relation.kind === 'one' ? [relation.entity] : [])),
  ),
]);

/** Whether an entity is owned by the record nesting it (not one of `sharedEntities`). */
export const isOwned = (entity: EntityType): boolean => !sharedEntities.has(entity);

/** Whether a relation is a list of owned entities, kept inside the row of the entity holding it. */
export const isKeptInside = (relation: Relation): boolean =>
  relation.kind === 'many' && isOwned(relation.entity);

type ListRelation = Extract<Relation, { kind: 'many' }>;

const keptInside = new Map(
  entityTypes.map((entity) => [
    entity,
    relations[entity].filter((relation): relation is ListRelation => isKeptInside(relation)),
  ]),
);

/** The relations of `entity` that are lists of owned entities, kept inside its row (computed once). */
export const keptInsideRelations = (entity: EntityType): readonly ListRelation[] => keptInside.get(entity)!;
