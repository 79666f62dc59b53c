import { relations, type EntityType, type RootEntity } from '../hsds/entities.ts';
import { isJsonObject, type Json } from '../json.ts';

/** Which nested entities a list item keeps (themselves cut to one-to-one fields), by field. */
type Kept = { [field: string]: Kept };

/**
 * The list item of spec part 4.4 cut from a served record: its one-to-one fields, plus the kept nested
 * entities with theirs (publishers' extension fields stay). Derived from the entity graph, so it follows
 * the model. Stored with the record, serialized, so that list pages and streams need not cut it per read.
 * Each object on the way is copied once; the record itself is left as it was.
 */
export function listItemOf(entity: RootEntity, record: Json): Json {
  return cut(entity, record, listShapes[entity]);
}

function cut(entity: EntityType, record: Json, kept: Kept): Json {
  const item: Json = { ...record };
  for (const relation of relations[entity]) {
    const keep = kept[relation.field];
    const nested = item[relation.field];
    if (keep === undefined) delete item[relation.field];
    // Kept nested entities are single objects (organization, program, location, service).
    else if (isJsonObject(nested)) item[relation.field] = cut(relation.entity, nested, keep);
  }
  return item;
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
