import * as z from 'zod';
import {
  Accessibility,
  Address,
  Attribute,
  Capacity,
  Contact,
  CostOption,
  FullOrganization,
  FullService,
  FullServiceAtLocation,
  Funding,
  Language,
  Link,
  Location,
  Metadata,
  Organization,
  OrganizationIdentifier,
  OrganizationListItem,
  OrganizationPage,
  OrganizationWithServiceIds,
  Phone,
  Program,
  RequiredDocument,
  RootInfo,
  Schedule,
  ServiceArea,
  ServiceAtLocation,
  ServiceAtLocationListItem,
  ServiceAtLocationPage,
  ServiceListItem,
  ServicePage,
  Taxonomy,
  TaxonomyListItem,
  TaxonomyPage,
  TaxonomyTerm,
  TaxonomyTermListItem,
  TaxonomyTermPage,
  Unit,
} from '../hsds/index.ts';
import {
  FullOrganizationPage,
  FullServiceAtLocationPage,
  FullServicePage,
  MinimalService,
  OrganizationRecord,
} from './endpoint-schemas.ts';
import { Liveness, Readiness } from './health-schemas.ts';
import { Problem } from './problem-schema.ts';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/**
 * Every schema the document names, by component name. Operations and other components refer to them by
 * `$ref`, so each shared part of the model (a phone, a schedule, …) is written out once: converted
 * inline, a full organization alone is about 750 KB.
 */
const namedSchemas = {
  Service: FullService,
  Organization,
  ServiceAtLocation,
  Location,
  Address,
  Accessibility,
  Phone,
  Contact,
  Schedule,
  Language,
  Funding,
  CostOption,
  Program,
  RequiredDocument,
  ServiceArea,
  Capacity,
  Unit,
  Link,
  OrganizationIdentifier,
  Attribute,
  TaxonomyTerm,
  Taxonomy,
  Metadata,
  FullOrganization,
  OrganizationWithServiceIds,
  OrganizationRecord,
  FullServiceAtLocation,
  ServiceListItem,
  OrganizationListItem,
  ServiceAtLocationListItem,
  TaxonomyListItem,
  TaxonomyTermListItem,
  MinimalService,
  ServicePage,
  OrganizationPage,
  ServiceAtLocationPage,
  TaxonomyPage,
  TaxonomyTermPage,
  FullServicePage,
  FullOrganizationPage,
  FullServiceAtLocationPage,
  RootInfo,
  Problem,
  Liveness,
  Readiness,
} satisfies Record<string, z.ZodType>;

const registry = z.registry<{ id: string }>();
for (const [id, schema] of Object.entries(namedSchemas)) registry.add(schema, { id });

const componentUri = (id: string) => `#/components/schemas/${id}`;

/** A `$ref` to the component of a named schema; a schema the document does not name is a bug. */
export function schemaRef(schema: z.ZodType): JsonSchema {
  const id = registry.get(schema)?.id;
  if (id === undefined) throw new Error(`No component names the schema '${schema.description}'.`);
  return { $ref: componentUri(id) };
}

/** `components.schemas`: the named schemas in their output form, what responses carry. */
export function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: componentUri });
  // Each comes as a document of its own; inside the OpenAPI document, the dialect is the document's and
  // a component is addressed by its place, so `$schema` and `$id` would only mislead.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _dialect, $id: _address, ...schema }]) => [id, schema]),
  );
}
