import type { z } from 'zod';
import type { TableField } from './sources/table-field.ts';
import {
  Accessibility,
  Address,
  Attribute,
  Capacity,
  Contact,
  CostOption,
  Funding,
  Language,
  Link,
  Location,
  Metadata,
  Organization,
  OrganizationIdentifier,
  Phone,
  Program,
  RequiredDocument,
  Schedule,
  Service,
  ServiceArea,
  ServiceAtLocation,
  Taxonomy,
  TaxonomyTerm,
  Unit,
  oneToOne,
} from '../hsds/index.ts';
import type { EntityType } from '../hsds/entities.ts';

const entitySchema = {
  service: Service,
  organization: Organization,
  service_at_location: ServiceAtLocation,
  location: Location,
  address: Address,
  accessibility: Accessibility,
  contact: Contact,
  phone: Phone,
  language: Language,
  schedule: Schedule,
  service_area: ServiceArea,
  funding: Funding,
  cost_option: CostOption,
  required_document: RequiredDocument,
  capacity: Capacity,
  unit: Unit,
  program: Program,
  organization_identifier: OrganizationIdentifier,
  link: Link,
  attribute: Attribute,
  taxonomy: Taxonomy,
  taxonomy_term: TaxonomyTerm,
  metadata: Metadata,
} satisfies Record<EntityType, z.ZodObject>;

/** The schema of one normalized row (a tabular-form table row): the entity's single-valued fields. */
export const rowSchema = {} as Record<EntityType, z.ZodType>;
for (const [entity, schema] of Object.entries(entitySchema)) {
  rowSchema[entity as EntityType] = oneToOne(schema as z.ZodObject);
}

/** Wrappers whose inner schema says what a field's values are. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch']);

/** The Table Schema type of a field whose values are not text (`number`, `boolean`), else undefined. */
function tableType(schema: z.ZodType): TableField['type'] {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  const inner = WRAPPERS.has(def.type) ? def.innerType : def.type === 'pipe' ? def.in : undefined;
  if (inner) return tableType(inner);
  return def.type === 'number' || def.type === 'boolean' ? def.type : undefined;
}

/**
 * Each entity's columns whose values are not text, as fields of a Table Schema: what a data package that
 * gives a table no schema (or a column no type) is read with, since a CSV cell is otherwise text and an age
 * or a latitude would be refused as one.
 */
export const modelColumns = {} as Record<EntityType, Map<string, TableField>>;
for (const [entity, schema] of Object.entries(entitySchema)) {
  const columns = new Map<string, TableField>();
  for (const [name, field] of Object.entries((schema as z.ZodObject).shape)) {
    const type = tableType(field as z.ZodType);
    if (type !== undefined) columns.set(name, { name, type });
  }
  modelColumns[entity as EntityType] = columns;
}
