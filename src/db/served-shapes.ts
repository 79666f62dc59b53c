import { fullProjection, INTERNAL_FIELDS } from './served-fields.ts';
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

/**
 * A list item computed from a served record, as the list projection would give it: stored with the record
 * (in its serialized form) so that list pages and streams need not cut every record on every read.
 */
export function listItemOf(projection: Projection, record: Record<string, unknown>): Record<string, unknown> {
  const item: Record<string, unknown> = { ...record };
  for (const path of Object.keys(projection)) {
    if (INTERNAL_FIELDS.includes(path)) continue;
    removePath(item, path.split('.'));
  }
  return item;
}

/** Removes a dotted path, copying the objects along it so the record itself is left as it was. */
function removePath(target: Record<string, unknown>, [head, ...rest]: string[]): void {
  if (head === undefined || !(head in target)) return;
  if (rest.length === 0) {
    delete target[head];
    return;
  }
  const next = target[head];
  // Kept nested entities are single objects (organization, program, location, service).
  if (next === null || typeof next !== 'object' || Array.isArray(next)) return;
  const copy = { ...(next as Record<string, unknown>) };
  target[head] = copy;
  removePath(copy, rest);
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
