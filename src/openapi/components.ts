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
  FullTaxonomyPage,
  FullTaxonomyTermPage,
  MinimalService,
  OrganizationRecord,
} from './endpoint-schemas.ts';
import { Liveness, Readiness } from './health-schemas.ts';
import { ChangeLine } from './change-schemas.ts';
import { ImportReport } from './import-report-schema.ts';
import { integerBounds } from './integer-bounds.ts';
import {
  AccessEntry,
  AccessEntryInput,
  AccessEntryPage,
  Source,
  SourcePage,
  User,
  UserInput,
  UserPage,
  UserUpdate,
} from './management-schemas.ts';
import { MetaEntry, MetaEntryInput, MetaEntryPage, MetaEntryUpdate } from './meta-schemas.ts';
import { Problem, RejectedRequestProblem } from './problem-schema.ts';
import { ProtocolProblem } from './protocol-problem-schema.ts';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/**
 * Every schema of a response the document names, by component name. Operations and other components refer to them by
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
  FullTaxonomyPage,
  FullTaxonomyTermPage,
  RootInfo,
  ChangeLine,
  Problem,
  RejectedRequestProblem,
  Liveness,
  Readiness,
  ProtocolProblem,
  User,
  UserPage,
  AccessEntry,
  AccessEntryPage,
  Source,
  SourcePage,
  MetaEntry,
  MetaEntryPage,
  ImportReport,
} satisfies Record<string, z.ZodType>;

/** The request bodies, named apart: they are written in their input form, what a client sends. */
const namedRequestSchemas = {
  UserInput,
  UserUpdate,
  AccessEntryInput,
  MetaEntryInput,
  MetaEntryUpdate,
} satisfies Record<string, z.ZodType>;

function registryOf(named: Record<string, z.ZodType>) {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  return registry;
}
const responseRegistry = registryOf(namedSchemas);
const requestRegistry = registryOf(namedRequestSchemas);

const componentUri = (id: string) => `#/components/schemas/${id}`;

/** A `$ref` to the component of a named schema; a schema the document does not name is a bug. */
export function schemaRef(schema: z.ZodType): JsonSchema {
  const id = (responseRegistry.get(schema) ?? requestRegistry.get(schema))?.id;
  if (id === undefined) throw new Error(`No component names the schema '${schema.description}'.`);
  return { $ref: componentUri(id) };
}

/** `components.schemas`: responses in their output form, what the server sends; request bodies in their input form. */
export function componentSchemas(): Record<string, JsonSchema> {
  return { ...convert(responseRegistry, 'output'), ...convert(requestRegistry, 'input') };
}

function convert(registry: ReturnType<typeof registryOf>, io: 'input' | 'output') {
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: componentUri,
    io,
    override: integerBounds,
  });
  // Each comes as a document of its own; inside the OpenAPI document, the dialect is the document's and
  // a component is addressed by its place, so `$schema` and `$id` would only mislead.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _dialect, $id: _address, ...schema }]) => [id, schema]),
  );
}
