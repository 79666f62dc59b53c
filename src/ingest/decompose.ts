import {
  entityTypes,
  isKeptInside,
  isRootEntity,
  relations,
  type EntityType,
  type Relation,
} from '../hsds/entities.ts';
import type { ChildList, Row, RowWrite } from './row.ts';
import { isJsonObject, type Json } from '../json.ts';

export interface Decomposition {
  rows: RowWrite[];
  childLists: ChildList[];
}

/**
 * The records a decomposed record gives whole, which its source loads (source-name.ts): the record itself,
 * and the served records it nests in full (an organization's services, a service's services at location);
 * not what it only refers to (a service's organization), which it gives in part.
 */
export const recordsGivenWhole = ({ rows }: Decomposition): RowWrite[] =>
  rows.filter((write, at) => at === 0 || (write.mode !== 'merge' && isRootEntity(write.entity)));

/**
 * Splits one validated, nested HSDS record into the rows it is stored as: a row for each shared entity
 * (the record's root, and each organization, location, program, taxonomy term or unit it refers to or
 * nests: `sharedEntities`), with the foreign key to its parent and its position in the parent's list as
 * the tabular form has them; the entities each one owns (phones, schedules, contacts, …) kept inside it, in
 * their lists, with their own owned entities inside them and their shared ones as references.
 */
export function decompose(entity: EntityType, record: Json): Decomposition {
  const out: Decomposition = { rows: [], childLists: [] };
  visit(entity, record, 'replace', {}, out);
  return out;
}

/** The fields of each entity that nest other entities (not copied into its row as given). */
const nestedFields = {} as Record<EntityType, ReadonlySet<string>>;
for (const entity of entityTypes) nestedFields[entity] = new Set(relations[entity].map(({ field }) => field));

function visit(
  entity: EntityType,
  value: Json,
  mode: RowWrite['mode'],
  linkFields: Record<string, unknown>,
  out: Decomposition,
): void {
  const id = value.id as string;
  const row: Row = { _id: id, id };
  const nested = nestedFields[entity];
  for (const key in value) if (!nested.has(key)) row[key] = value[key];
  Object.assign(row, linkFields);
  out.rows.push({ entity, row, mode });
  nestRelations(entity, value, row, true, out);
}

/**
 * Puts what `value` nests into `stored` (a row, or an owned entity kept inside one): owned lists inside it,
 * shared entities referred to by id and visited as rows of their own, shared lists as rows pointing to it.
 */
function nestRelations(
  entity: EntityType,
  value: Json,
  stored: Json,
  isRow: boolean,
  out: Decomposition,
): void {
  const id = value.id as string;
  for (const relation of relations[entity]) {
    const nested = value[relation.field];
    if (nested === undefined) continue;
    if (relation.kind === 'one') {
      if (!isJsonObject(nested)) continue;
      stored[relation.reference] = nested.id;
      visit(relation.entity, nested, 'merge', {}, out);
      continue;
    }
    if (!Array.isArray(nested)) continue;
    const children = nested.filter(isJsonObject);
    if (isKeptInside(relation)) {
      // Kept whole here. Rows of the tabular form that named this parent (only a row is shown with them:
      // compose.ts) leave its list, as children missing from a list given in full do.
      stored[relation.field] = children.map((child) => owned(relation, child, out));
      if (isRow) {
        const list = { entity: relation.entity, foreignKey: relation.foreignKey, parentId: id, ids: [] };
        out.childLists.push(list);
      }
      continue;
    }
    out.childLists.push({
      entity: relation.entity,
      foreignKey: relation.foreignKey,
      parentId: id,
      ids: children.map((child) => child.id as string),
    });
    children.forEach((child, position) => {
      const link: Record<string, unknown> = { [relation.foreignKey]: id, _position: position };
      if (relation.kindKey) link[relation.kindKey] = child[relation.kindKey] ?? entity;
      visit(relation.entity, child, 'replace', link, out);
    });
  }
}

/**
 * An owned entity as kept inside its parent: its own fields, without the foreign key to that parent, which
 * is where it is kept (composing sets it back: src/ingest/compose.ts).
 */
function owned(relation: Extract<Relation, { kind: 'many' }>, value: Json, out: Decomposition): Json {
  const nested = nestedFields[relation.entity];
  const stored: Json = {};
  for (const key in value) if (!nested.has(key) && key !== relation.foreignKey) stored[key] = value[key];
  nestRelations(relation.entity, value, stored, false, out);
  return stored;
}
