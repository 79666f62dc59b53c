import { fullProjection } from '../db/served-fields.ts';
import { relations, type EntityType } from '../ingest/entities.ts';

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

/** Projections of the list items of each core list endpoint. */
export const listProjections = {
  service: listProjection('service', serviceItem),
  organization: listProjection('organization', {}),
  service_at_location: listProjection('service_at_location', { location: {}, service: serviceItem }),
  taxonomy: listProjection('taxonomy', {}),
  taxonomy_term: listProjection('taxonomy_term', { taxonomy_detail: {} }),
};
