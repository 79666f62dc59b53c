import { relations } from '../../src/hsds/entities.ts';
import { isJsonObject } from '../../src/json.ts';

/**
 * Fields a stored nested document carries that the import writes itself, beyond what the input gave:
 *
 * - every field starting with `_` (`_id`, `_hash`, `_deps`, `_search`, `_terms`, `_taxonomies`, `_geo`):
 *   bookkeeping and query fields, never served;
 * - the link fields of the entity graph (`relations` in src/hsds/entities.ts): the foreign key a child
 *   row carries to its parent (`service_id`, `location_id`, `phone_id`, ...), the kind of parent a
 *   generic child records (`link_entity` on attributes, `resource_type` on metadata), and the id of a
 *   single nested entity its parent row refers to (`organization_id`, `program_id`, `taxonomy_term_id`,
 *   `taxonomy_id`, `unit_id`). Nested input has no such fields; decomposing fills them in.
 */
const LINK_FIELDS: ReadonlySet<string> = new Set(
  Object.values(relations).flatMap((list) =>
    list.flatMap((relation) =>
      relation.kind === 'many'
        ? [relation.foreignKey, ...(relation.kindKey ? [relation.kindKey] : [])]
        : [relation.reference],
    ),
  ),
);

/**
 * A stored document without the fields the import generates (see above), so it can be deep-compared with
 * what was imported. Given `like` (the input the document was built from), a link field is removed only
 * where `like` has none at the same place: one the input gave itself (the example's attribute gives
 * `link_entity`) is content and stays compared. Without `like`, every link field is removed.
 */
export function withoutGeneratedFields(document: unknown, like?: unknown): unknown {
  if (Array.isArray(document)) {
    return document.map((item, index) =>
      withoutGeneratedFields(item, Array.isArray(like) ? like[index] : undefined),
    );
  }
  if (!isJsonObject(document)) return document;
  const given = isJsonObject(like) ? like : {};
  return Object.fromEntries(
    Object.entries(document)
      .filter(([key]) => !key.startsWith('_') && !(LINK_FIELDS.has(key) && !(key in given)))
      .map(([key, value]) => [key, withoutGeneratedFields(value, given[key])]),
  );
}
