/*
 * Our own sample HSDS records, every declared field filled, for tests. Builders return fresh objects
 * with fresh ids, so tests can mutate them freely.
 */
import type { Projection } from '../../src/hsds/index.ts';
import type { Json } from '../../src/json.ts';

type Sample = Json;

let lastId = 0;
/** A valid, unique UUID (version 4 layout). */
export const newId = () => `00000000-0000-4000-8000-${(++lastId).toString(16).padStart(12, '0')}`;

export const metadata = (): Sample => ({
  id: newId(),
  resource_id: newId(),
  resource_type: 'service',
  last_action_date: '2024-02-29',
  last_action_type: 'update',
  field_name: 'name',
  previous_value: 'Food bank',
  replacement_value: 'Community food bank',
  updated_by: 'editor@example.org',
});

export const taxonomy = (): Sample => ({
  id: newId(),
  name: 'Open Eligibility',
  description: 'A taxonomy of human services.',
  uri: 'https://example.org/taxonomy',
  version: '2.0',
  metadata: [metadata()],
});

export const taxonomyTerm = (): Sample => ({
  id: newId(),
  code: 'FOOD',
  name: 'Food',
  description: 'Services that provide food.',
  parent_id: newId(),
  taxonomy: 'Open Eligibility',
  taxonomy_detail: taxonomy(),
  language: 'en',
  taxonomy_id: newId(),
  term_uri: 'https://example.org/taxonomy/food',
  metadata: [metadata()],
});

export const attribute = (): Sample => ({
  id: newId(),
  link_id: newId(),
  taxonomy_term_id: newId(),
  link_type: 'eligibility',
  link_entity: 'service',
  value: '18',
  label: 'Minimum age',
  taxonomy_term: taxonomyTerm(),
  metadata: [metadata()],
});

const annotations = () => ({ attributes: [attribute()], metadata: [metadata()] });

export const language = (): Sample => ({
  id: newId(),
  service_id: newId(),
  location_id: newId(),
  phone_id: newId(),
  name: 'Welsh',
  code: 'cy',
  note: 'Spoken by some staff.',
  ...annotations(),
});

export const phone = (): Sample => ({
  id: newId(),
  location_id: newId(),
  service_id: newId(),
  organization_id: newId(),
  contact_id: newId(),
  service_at_location_id: newId(),
  number: '+44 20 7946 0000',
  extension: 12,
  type: 'voice',
  description: 'Reception, weekdays.',
  languages: [language()],
  ...annotations(),
});

export const contact = (): Sample => ({
  id: newId(),
  organization_id: newId(),
  service_id: newId(),
  service_at_location_id: newId(),
  location_id: newId(),
  name: 'Ada Jones',
  title: 'Coordinator',
  department: 'Outreach',
  email: 'ada@example.org',
  phones: [phone()],
  ...annotations(),
});

export const schedule = (): Sample => ({
  id: newId(),
  service_id: newId(),
  location_id: newId(),
  service_at_location_id: newId(),
  valid_from: '2024-01-01',
  valid_to: '2024-12-31',
  dtstart: '2024-01-01',
  timezone: 0,
  until: '2024-12-31',
  count: 52,
  wkst: 'MO',
  freq: 'WEEKLY',
  interval: 1,
  byday: 'MO,WE',
  byweekno: '1,2',
  bymonthday: '1,15',
  byyearday: '1,100',
  description: 'Mondays and Wednesdays, 9 to 5.',
  opens_at: '09:00:00',
  closes_at: '17:00:00',
  schedule_link: 'https://example.org/book',
  attending_type: 'in person',
  notes: 'Closed on bank holidays.',
  ...annotations(),
});

export const serviceArea = (): Sample => ({
  id: newId(),
  service_id: newId(),
  name: 'Camden',
  description: 'The London Borough of Camden.',
  extent: '{"type":"Point","coordinates":[-0.14,51.54]}',
  extent_type: 'geojson',
  uri: 'https://example.org/areas/camden',
  ...annotations(),
});

export const address = (): Sample => ({
  id: newId(),
  location_id: newId(),
  attention: 'Reception',
  address_1: '1 High Street',
  address_2: 'Floor 2',
  city: 'London',
  region: 'Greater London',
  state_province: 'England',
  postal_code: 'NW1 1AA',
  country: 'GB',
  address_type: 'physical',
  ...annotations(),
});

export const accessibility = (): Sample => ({
  id: newId(),
  location_id: newId(),
  description: 'Step-free entrance.',
  details: 'Ramp at the side door.',
  url: 'https://example.org/access',
  ...annotations(),
});

export const location = (): Sample => ({
  id: newId(),
  location_type: 'physical',
  url: 'https://example.org/centre',
  organization_id: newId(),
  name: 'Community Centre',
  alternate_name: 'The Centre',
  description: 'A community centre.',
  transportation: 'Bus 24.',
  latitude: 51.54,
  longitude: -0.14,
  external_identifier: '10092008082',
  external_identifier_type: 'UPRN',
  languages: [language()],
  addresses: [address()],
  contacts: [contact()],
  accessibility: [accessibility()],
  phones: [phone()],
  schedules: [schedule()],
  ...annotations(),
});

export const link = (): Sample => ({ id: newId(), label: 'Website', url: 'https://example.org' });

export const program = (): Sample => ({
  id: newId(),
  organization_id: newId(),
  name: 'Food Programme',
  alternate_name: 'Food',
  description: 'Food services.',
  ...annotations(),
});

export const funding = (): Sample => ({
  id: newId(),
  organization_id: newId(),
  service_id: newId(),
  source: 'City council',
  ...annotations(),
});

export const organization = (): Sample => ({
  id: newId(),
  name: 'Example Trust',
  alternate_name: 'The Trust',
  description: 'A charity.',
  email: 'info@example.org',
  website: 'https://example.org',
  additional_websites: [link()],
  tax_status: 'charitable',
  tax_id: '123',
  year_incorporated: 1999,
  legal_status: 'charity',
  logo: 'https://example.org/logo.png',
  uri: 'https://example.org/id/trust',
  parent_organization_id: newId(),
  funding: [funding()],
  contacts: [contact()],
  phones: [phone()],
  locations: [location()],
  programs: [program()],
  organization_identifiers: [
    {
      id: newId(),
      organization_id: newId(),
      identifier_scheme: 'GB-CHC',
      identifier_type: 'Charity number',
      identifier: '1234567',
      ...annotations(),
    },
  ],
  ...annotations(),
});

export const serviceAtLocation = (): Sample => ({
  id: newId(),
  service_id: newId(),
  location_id: newId(),
  description: 'The food bank at the centre.',
  service_areas: [serviceArea()],
  contacts: [contact()],
  phones: [phone()],
  schedules: [schedule()],
  location: location(),
  ...annotations(),
});

/** A service with everything nested, as GET /services/{id} returns it. */
export const fullService = (): Sample => ({
  id: newId(),
  organization_id: newId(),
  program_id: newId(),
  name: 'Food Bank',
  alternate_name: 'Pantry',
  description: 'Emergency food parcels.',
  url: 'https://example.org/food',
  additional_urls: [link()],
  email: 'food@example.org',
  status: 'temporarily closed',
  interpretation_services: 'Welsh and Polish.',
  application_process: 'Referral by a GP.',
  fees_description: 'Free.',
  wait_time: 'None',
  fees: 'None',
  accreditations: 'None',
  eligibility_description: 'Adults in the borough.',
  minimum_age: 18,
  maximum_age: 120.5,
  assured_date: '2024-01-31',
  assurer_email: 'assurer@example.org',
  licenses: 'None',
  alert: 'Closed over the holidays.',
  last_modified: '2024-01-31T10:30:45.123Z',
  phones: [phone()],
  schedules: [schedule()],
  service_areas: [serviceArea()],
  service_at_locations: [serviceAtLocation()],
  languages: [language()],
  organization: organization(),
  funding: [funding()],
  cost_options: [
    {
      id: newId(),
      service_id: newId(),
      valid_from: '2024-01-01',
      valid_to: '2024-12-31',
      option: 'Per session',
      currency: 'GBP',
      amount: 12.5,
      amount_description: 'Twelve pounds fifty.',
      ...annotations(),
    },
  ],
  program: program(),
  required_documents: [
    {
      id: newId(),
      service_id: newId(),
      document: 'Proof of address',
      uri: 'https://example.org/docs',
      ...annotations(),
    },
  ],
  contacts: [contact()],
  capacities: [
    {
      id: newId(),
      service_id: newId(),
      unit_id: newId(),
      unit: {
        id: newId(),
        name: 'Parcel',
        scheme: 'local',
        identifier: 'parcel',
        uri: 'https://example.org/units/parcel',
      },
      available: 12,
      maximum: 40,
      description: 'Food parcels left today.',
      updated: '2024-01-31T10:30:45.5+01:00',
    },
  ],
  ...annotations(),
});

/** An organization with its services fully nested, as GET /organizations/{id}?full_service=true returns it. */
export const fullOrganization = (): Sample => ({ ...organization(), services: [fullService()] });

/** A service at location with its service fully nested, as GET /service_at_locations/{id} returns it. */
export const fullServiceAtLocation = (): Sample => {
  const { service_at_locations: _, ...service } = fullService();
  return { ...serviceAtLocation(), service };
};

/** Keeps only what a projection includes, as MongoDB's `$project` would. */
export const project = (value: unknown, projection: Projection): unknown => {
  if (Array.isArray(value)) return value.map((item) => project(item, projection));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Sample;
  return Object.fromEntries(
    Object.entries(projection)
      .filter(([key]) => key in record)
      .map(([key, inner]) => [key, inner === true ? record[key] : project(record[key], inner)]),
  );
};
