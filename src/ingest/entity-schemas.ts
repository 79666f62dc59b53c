import type { z } from 'zod';
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
