import { basename, extname } from 'node:path';
import { entityTypes, type EntityType } from '../../hsds/entities.ts';

/** English plural of an entity name, as tabular-form files are often named (`taxonomies.csv`). */
function plural(name: string): string {
  if (name.endsWith('y')) return `${name.slice(0, -1)}ies`;
  if (name.endsWith('s')) return `${name}es`;
  return `${name}s`;
}

/** Every name a table of each entity may go by: the entity's own (`phone`) and its plural (`phones`). */
const entityByTableName = new Map<string, EntityType>(
  entityTypes.flatMap((entity) => [
    [entity, entity],
    [plural(entity), entity],
  ]),
);

/**
 * The entity a tabular-form table holds, from its data package resource name (`service_at_location`)
 * or else its file name (`phones.csv`); undefined for a table HSDS has but we do not store
 * (`meta_table_description`) or one we do not know at all.
 */
export function entityOfTable(resourceName: string | undefined, file: string): EntityType | undefined {
  for (const name of namesOf(resourceName, file)) {
    const entity = entityByTableName.get(name);
    if (entity) return entity;
  }
  return undefined;
}

/** The names a table goes by, lower-cased: its resource name (if any), then its file name without extension. */
const namesOf = (resourceName: string | undefined, file: string): string[] =>
  [resourceName, basename(file, extname(file))].flatMap((name) =>
    name === undefined ? [] : [name.toLowerCase()],
  );

/** HSDS's own table describing the package's tables (`meta_table_descriptions.csv`): no records of a directory. */
const DESCRIPTION_TABLES = new Set(['meta_table_description', 'meta_table_descriptions']);

/** Whether a table is HSDS's description of the package's tables, by resource name or file name. */
export const isTableDescriptions = (resourceName: string | undefined, file: string): boolean =>
  namesOf(resourceName, file).some((name) => DESCRIPTION_TABLES.has(name));
