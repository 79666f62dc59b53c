import { fullProjection } from './served-fields.ts';
import { relations, type EntityType, type RootEntity } from '../ingest/entities.ts';

/** Which nested entities a list item keeps (themselves cut to one-to-one fields), by field. */
type Kept = { [field: string]: Kept };

export type Projection = Record<string, 0>;

/**
 * The exclusion projection that cuts a stored document down to a list item of spec part 4.4: its
 * one-to-one fields, plus the kept nested entities with theirs. Derived from the entity graph, so it
 * follows the model; an exclusion (not inclusion) projection so publishers' extension fields stay.
 */
export function listProjection(entity: EntityType, kept: Kept): Projection {
  return { ...fullProjection, ...excludeNested(entity, '', kept) };
}

/**
 * A list item cut from a served record, as its list projection would give it (both come from the same
 * shape): stored with the record, serialized, so that list pages and streams need not cut it per read.
 * Each object on the way is copied once; the record itself is left as it was.
 */
export function listItemOf(entity: RootEntity, record: Record<string, unknown>): Record<string, unknown> {
  return cut(entity, record, listShapes[entity]);
}

function cut(entity: EntityType, record: Record<string, unknown>, kept: Kept): Record<string, unknown> {
  const item: Record<string, unknown> = { ...record };
  for (const relation of relations[entity]) {
    const keep = kept[relation.field];
    const nested = item[relation.field];
    if (keep === undefined) delete item[relation.field];
    // Kept nested entities are single objects (organization, program, location, service).
    else if (nested !== null && typeof nested === 'object' && !Array.isArray(nested)) {
      item[relation.field] = cut(relation.entity, nested as Record<string, unknown>, keep);
    }
  }
  return item;
}

function excludeNested(entity: EntityType, prefix: string, kept: Kept): Projection {
  const projection: Projection = {};
  for (const relation of relations[entity]) {
    const path = `${prefix}${relation.field}`;
    const keep = kept[relation.field];
    if (keep === undefined) projection[path] = 0;
    else Object.assign(projection, excludeNested(relation.entity, `${path}.`, keep));
  }
  return projection;
}

const serviceItem: Kept = { organization: {}, program: {} };

/** What the list item of each core list endpoint keeps of the nested entities (spec part 4.4). */
const listShapes: Record<RootEntity, Kept> = {
  service: serviceItem,
  organization: {},
  service_at_location: { location: {}, service: serviceItem },
  taxonomy: {},
  taxonomy_term: { taxonomy_detail: {} },
};

/** Projections of the list items of each core list endpoint. */
export const listProjections = Object.fromEntries(
  Object.entries(listShapes).map(([entity, kept]) => [entity, listProjection(entity as RootEntity, kept)]),
) as Record<RootEntity, Projection>;
