import { entityTypes, relations, type EntityType } from '../hsds/entities.ts';
import type { ChildList, Row, RowWrite } from './row.ts';
import { isJsonObject, type Json } from '../json.ts';

export interface Decomposition {
  rows: RowWrite[];
  childLists: ChildList[];
}

/**
 * Splits one validated, nested HSDS record into the normalized rows it contains, setting on each child the
 * foreign key to its parent (as the tabular form has it) and its position in the parent's list.
 */
export function decompose(entity: EntityType, record: Json): Decomposition {
  const out: Decomposition = { rows: [], childLists: [] };
  visit(entity, record, 'replace', {}, out);
  return out;
}

/** The fields of each entity that nest other entities (not copied into its row). */
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
  for (const [key, field] of Object.entries(value)) {
    if (!nested.has(key)) row[key] = field;
  }
  Object.assign(row, linkFields);
  out.rows.push({ entity, row, mode });

  for (const relation of relations[entity]) {
    const nested = value[relation.field];
    if (nested === undefined) continue;
    if (relation.kind === 'one') {
      if (!isJsonObject(nested)) continue;
      row[relation.reference] = nested.id;
      visit(relation.entity, nested, 'merge', {}, out);
      continue;
    }
    if (!Array.isArray(nested)) continue;
    const children = nested.filter(isJsonObject);
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
