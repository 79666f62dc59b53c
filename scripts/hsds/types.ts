// Shapes of the nested HSDS 3.0 records this project writes (compiled/organization.json and
// compiled/service.json), plus the spec part 2 additions the 3.0 schemas lack: `additional_urls`,
// `additional_websites` and `capacities`.

export type ServiceStatus = 'active' | 'inactive' | 'defunct' | 'temporarily closed';

export interface Taxonomy {
  id: string;
  name: string;
  description: string;
  uri: string;
  version: string;
}

export interface TaxonomyTerm {
  id: string;
  code: string;
  name: string;
  description: string;
  parent_id?: string;
  taxonomy: string;
  taxonomy_id: string;
  language: string;
  term_uri: string;
}

export interface NestedTaxonomyTerm extends TaxonomyTerm {
  taxonomy_detail: Taxonomy;
}

export interface Metadata {
  id: string;
  resource_id: string;
  resource_type: string;
  last_action_date: string;
  last_action_type: string;
  field_name: string;
  previous_value: string;
  replacement_value: string;
  updated_by: string;
}

export interface Attribute {
  id: string;
  link_id: string;
  taxonomy_term_id: string;
  link_type: string;
  link_entity: string;
  value?: string;
  taxonomy_term: NestedTaxonomyTerm;
}

export interface Language {
  id: string;
  name: string;
  code: string;
  note?: string;
}

export interface Phone {
  id: string;
  number: string;
  extension?: number;
  type: string;
  description: string;
  languages?: Language[];
}

export interface Contact {
  id: string;
  name: string;
  title: string;
  department?: string;
  email: string;
  phones: Phone[];
}

export interface Schedule {
  id: string;
  valid_from: string;
  freq: 'WEEKLY' | 'MONTHLY';
  interval: number;
  wkst: 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';
  byday: string;
  opens_at: string;
  closes_at: string;
  timezone: number;
  description: string;
  attending_type?: string;
  notes?: string;
}

export interface Address {
  id: string;
  address_1: string;
  address_2?: string;
  city: string;
  region?: string;
  state_province: string;
  postal_code: string;
  country: string;
  address_type: 'physical' | 'postal' | 'virtual';
}

export interface Accessibility {
  id: string;
  description: string;
  details?: string;
}

export interface Location {
  id: string;
  organization_id: string;
  location_type: 'physical' | 'postal' | 'virtual';
  url?: string;
  name: string;
  alternate_name?: string;
  description: string;
  transportation?: string;
  latitude?: number;
  longitude?: number;
  external_identifier?: string;
  external_identifier_type?: string;
  languages: Language[];
  addresses: Address[];
  phones: Phone[];
  schedules: Schedule[];
  accessibility: Accessibility[];
  attributes: Attribute[];
  metadata?: Metadata[];
}

export interface ServiceArea {
  id: string;
  name: string;
  description: string;
  extent: string;
  extent_type: 'geojson' | 'text';
}

export interface ServiceAtLocation {
  id: string;
  service_id: string;
  location_id: string;
  description: string;
  phones?: Phone[];
  schedules?: Schedule[];
  location: Location;
}

export interface CostOption {
  id: string;
  valid_from: string;
  option: string;
  currency: string;
  amount: number;
  amount_description: string;
}

export interface Funding {
  id: string;
  source: string;
}

export interface Program {
  id: string;
  organization_id: string;
  name: string;
  description: string;
}

export interface RequiredDocument {
  id: string;
  document: string;
  uri?: string;
}

/** A link with a label: spec part 2's `additional_urls` (services) and `additional_websites` (organizations). */
export interface Link {
  id: string;
  label: string;
  url: string;
}

export interface CapacityUnit {
  id: string;
  name: string;
  scheme: string;
  identifier: string;
  uri: string;
}

/** Spec part 2's Capacity: the 3.0 schemas have no such object. */
export interface Capacity {
  id: string;
  unit: CapacityUnit;
  available: number;
  maximum: number;
  description: string;
  updated: string;
}

export interface OrganizationIdentifier {
  id: string;
  identifier_scheme?: string;
  identifier_type: string;
  identifier: string;
}

/** A full service as nested under its organization: everything but the embedded `organization`. */
export interface Service {
  id: string;
  organization_id: string;
  program_id?: string;
  name: string;
  alternate_name?: string;
  description: string;
  url: string;
  additional_urls?: Link[];
  email: string;
  status: ServiceStatus;
  interpretation_services?: string;
  application_process: string;
  fees_description: string;
  accreditations?: string;
  eligibility_description: string;
  minimum_age?: number;
  maximum_age?: number;
  assured_date: string;
  assurer_email: string;
  alert?: string;
  last_modified: string;
  phones: Phone[];
  schedules: Schedule[];
  service_areas: ServiceArea[];
  service_at_locations: ServiceAtLocation[];
  languages: Language[];
  funding: Funding[];
  cost_options: CostOption[];
  program?: Program;
  required_documents: RequiredDocument[];
  contacts: Contact[];
  capacities?: Capacity[];
  attributes: Attribute[];
  metadata?: Metadata[];
}

/** An organization's own fields and nested arrays, without its services. */
export interface OrganizationProfile {
  id: string;
  name: string;
  alternate_name?: string;
  description: string;
  email: string;
  website: string;
  additional_websites?: Link[];
  year_incorporated: number;
  legal_status: string;
  logo?: string;
  uri?: string;
  parent_organization_id?: string;
  funding: Funding[];
  contacts: Contact[];
  phones: Phone[];
  locations: Location[];
  programs: Program[];
  organization_identifiers: OrganizationIdentifier[];
  attributes: Attribute[];
  metadata?: Metadata[];
}

export interface Organization extends OrganizationProfile {
  services: Service[];
}

/** A service as served on its own: with its organization embedded. */
export interface ServiceWithOrganization extends Service {
  organization: OrganizationProfile;
}
