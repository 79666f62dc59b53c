import { describe, expect, it } from 'vitest';
import {
  Address,
  Capacity,
  FullOrganization,
  FullService,
  FullServiceAtLocation,
  Link,
  Metadata,
  OrganizationWithServiceIds,
  Schedule,
  ServiceListItem,
  ServicePage,
  Taxonomy,
} from '../../src/hsds/index.ts';
import * as sample from './samples.ts';

const issuesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map(({ path, message }) => ({ path, message }));

describe('our sample records', () => {
  it.each([
    ['FullService', FullService, sample.fullService],
    ['FullOrganization', FullOrganization, sample.fullOrganization],
    ['FullServiceAtLocation', FullServiceAtLocation, sample.fullServiceAtLocation],
  ] as const)('%s accepts a record with every field filled', (_, schema, build) => {
    const record = build();
    expect(schema.parse(record)).toEqual(record);
  });
});

describe('bad records give precise errors', () => {
  it('wrong enum value', () => {
    const service = { ...sample.fullService(), status: 'open' };
    expect(issuesOf(FullService.safeParse(service))).toEqual([
      {
        path: ['status'],
        message: 'Invalid option: expected one of "active"|"inactive"|"defunct"|"temporarily closed"',
      },
    ]);
  });

  it('wrong enum value deep inside', () => {
    const service = sample.fullService() as { service_at_locations: { location: Record<string, unknown> }[] };
    service.service_at_locations[0]!.location.location_type = 'home';
    expect(issuesOf(FullService.safeParse(service))).toEqual([
      {
        path: ['service_at_locations', 0, 'location', 'location_type'],
        message: 'Invalid option: expected one of "physical"|"postal"|"virtual"',
      },
    ]);
  });

  it.each([
    ['freq', 'DAILY', 'Invalid option: expected one of "WEEKLY"|"MONTHLY"'],
    ['wkst', 'MONDAY', 'Invalid option: expected one of "MO"|"TU"|"WE"|"TH"|"FR"|"SA"|"SU"'],
    ['opens_at', '25:00', 'Invalid ISO time'],
    ['valid_from', '2024-02-30', 'Invalid ISO date'],
    ['schedule_link', 'example.org/book', 'Invalid URL'],
    ['timezone', 'Europe/London', 'Invalid input: expected number, received string'],
  ])('schedule %s = %j', (field, value, message) => {
    expect(issuesOf(Schedule.safeParse({ ...sample.schedule(), [field]: value }))).toEqual([
      { path: [field], message },
    ]);
  });

  it('bad uuid', () => {
    expect(issuesOf(Taxonomy.safeParse({ ...sample.taxonomy(), id: 'tax-1' }))).toEqual([
      { path: ['id'], message: 'Invalid UUID' },
    ]);
  });

  it('missing required field', () => {
    const { city: _, ...address } = sample.address();
    expect(issuesOf(Address.safeParse(address))).toEqual([
      { path: ['city'], message: 'Invalid input: expected string, received undefined' },
    ]);
  });

  it('missing required fields of a metadata record, all reported', () => {
    const { field_name: _, updated_by: __, ...record } = sample.metadata();
    expect(issuesOf(Metadata.safeParse(record))).toEqual([
      { path: ['field_name'], message: 'Invalid input: expected string, received undefined' },
      { path: ['updated_by'], message: 'Invalid input: expected string, received undefined' },
    ]);
  });

  it('wrong type', () => {
    const service = { ...sample.fullService(), minimum_age: '18' };
    expect(issuesOf(FullService.safeParse(service))).toEqual([
      { path: ['minimum_age'], message: 'Invalid input: expected number, received string' },
    ]);
  });

  it('bad email and bad date-time', () => {
    const service = { ...sample.fullService(), email: 'food@', last_modified: '2024-01-31T10:30:45' };
    expect(issuesOf(FullService.safeParse(service))).toEqual([
      { path: ['email'], message: 'Invalid email address' },
      { path: ['last_modified'], message: 'Invalid ISO datetime' },
    ]);
  });

  it('null is not accepted for an optional field (see index.ts)', () => {
    const service = { ...sample.fullService(), alternate_name: null };
    expect(issuesOf(FullService.safeParse(service))).toEqual([
      { path: ['alternate_name'], message: 'Invalid input: expected string, received null' },
    ]);
  });
});

describe('fields the spec adds to the shared 3.0 schemas', () => {
  it('a link needs a url', () => {
    expect(issuesOf(Link.safeParse({ id: sample.newId(), label: 'Website' }))).toEqual([
      { path: ['url'], message: 'Invalid input: expected string, received undefined' },
    ]);
  });

  it('a capacity needs its unit, and updated with a UTC offset', () => {
    const { unit: _, ...capacity } = (sample.fullService().capacities as Record<string, unknown>[])[0]!;
    expect(issuesOf(Capacity.safeParse({ ...capacity, updated: '2024-01-31 10:30' }))).toEqual([
      { path: ['unit'], message: 'Invalid input: expected object, received undefined' },
      { path: ['updated'], message: 'Invalid ISO datetime' },
    ]);
  });
});

describe('extensions', () => {
  it('unknown fields survive a parse at every level', () => {
    const service = sample.fullService() as Record<string, never> & {
      organization: Record<string, unknown>;
      phones: Record<string, unknown>[];
      attributes: { taxonomy_term: { taxonomy_detail: Record<string, unknown> } }[];
    };
    const extended = {
      ...service,
      x_local_reference: 'ABC-1',
      organization: { ...service.organization, x_charity_rating: 4 },
      phones: [{ ...service.phones[0], x_sms: true }],
      attributes: [
        {
          ...service.attributes[0]!,
          taxonomy_term: {
            ...service.attributes[0]!.taxonomy_term,
            taxonomy_detail: { ...service.attributes[0]!.taxonomy_term.taxonomy_detail, x_owner: 'us' },
          },
        },
      ],
    };
    expect(FullService.parse(extended)).toEqual(extended);
  });

  it('unknown fields survive in list pages', () => {
    const item = { id: sample.newId(), name: 'Food Bank', status: 'active', x_rank: 1 };
    const listPage = { empty: false, contents: [item], x_took_ms: 3 };
    expect(ServicePage.parse(listPage)).toEqual(listPage);
    expect(ServiceListItem.parse(item)).toEqual(item);
  });
});

describe('organization services', () => {
  it('FullOrganization needs full services; OrganizationWithServiceIds takes ids only', () => {
    const organization = { ...sample.organization(), services: [{ id: sample.newId() }] };
    expect(issuesOf(FullOrganization.safeParse(organization))).toEqual([
      { path: ['services', 0, 'name'], message: 'Invalid input: expected string, received undefined' },
      {
        path: ['services', 0, 'status'],
        message: 'Invalid option: expected one of "active"|"inactive"|"defunct"|"temporarily closed"',
      },
    ]);
    expect(OrganizationWithServiceIds.parse(organization)).toEqual(organization);
  });
});
