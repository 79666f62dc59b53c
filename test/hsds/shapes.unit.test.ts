import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import * as hsds from '../../src/hsds/index.ts';
import {
  FullOrganization,
  FullService,
  FullServiceAtLocation,
  OrganizationListItem,
  ServiceAtLocationListItem,
  ServiceListItem,
  TaxonomyTermListItem,
  oneToOneFields,
  page,
  projectionOf,
} from '../../src/hsds/index.ts';
import * as sample from './samples.ts';

const serviceFields = [
  'id',
  'organization_id',
  'program_id',
  'name',
  'alternate_name',
  'description',
  'url',
  'email',
  'status',
  'interpretation_services',
  'application_process',
  'fees_description',
  'wait_time',
  'fees',
  'accreditations',
  'eligibility_description',
  'minimum_age',
  'maximum_age',
  'assured_date',
  'assurer_email',
  'licenses',
  'alert',
  'last_modified',
];

describe('one-to-one fields', () => {
  it('are the single-valued fields of a full shape', () => {
    expect(oneToOneFields(FullService)).toEqual(serviceFields);
    expect(oneToOneFields(FullServiceAtLocation)).toEqual(['id', 'service_id', 'location_id', 'description']);
    expect(oneToOneFields(FullOrganization)).not.toContain('services');
    expect(oneToOneFields(FullOrganization)).not.toContain('additional_websites');
  });

  it('are exactly the fields of the list items', () => {
    expect(oneToOneFields(ServiceListItem)).toEqual(serviceFields);
    expect(Object.keys(ServiceListItem.shape)).toEqual([...serviceFields, 'organization', 'program']);
    expect(Object.keys(OrganizationListItem.shape)).toEqual(oneToOneFields(FullOrganization));
    expect(Object.keys(ServiceAtLocationListItem.shape)).toEqual([
      'id',
      'service_id',
      'location_id',
      'description',
      'location',
      'service',
    ]);
  });

  it('are typed: list items have no nested arrays', () => {
    type ListItemKey = keyof typeof ServiceListItem.shape;
    expectTypeOf<'phones' extends ListItemKey ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<'organization' extends ListItemKey ? true : false>().toEqualTypeOf<true>();
    expectTypeOf(oneToOneFields(FullService)).toEqualTypeOf<
      Exclude<ListItemKey, 'organization' | 'program'>[]
    >();
  });
});

describe('projections', () => {
  it('cut a full record down to a valid list item with nothing else', () => {
    const service = sample.fullService();
    const item = sample.project(service, projectionOf(ServiceListItem)) as Record<string, unknown>;
    expect(Object.keys(item)).toEqual([...serviceFields, 'organization', 'program']);
    expect(Object.keys(item.organization as object)).toEqual(oneToOneFields(OrganizationListItem));
    expect(ServiceListItem.parse(item)).toEqual(item);
  });

  it('nest for the service at location list item', () => {
    const projection = projectionOf(ServiceAtLocationListItem);
    expect(projection.location).toEqual(
      Object.fromEntries(
        oneToOneFields(FullServiceAtLocation.shape.location.unwrap()).map((key) => [key, true]),
      ),
    );
    expect(projection.service).toEqual(projectionOf(ServiceListItem));
    const item = sample.project(sample.fullServiceAtLocation(), projection);
    expect(ServiceAtLocationListItem.parse(item)).toEqual(item);
  });

  it('keep the taxonomy of a taxonomy term', () => {
    expect(projectionOf(TaxonomyTermListItem).taxonomy_detail).toEqual({
      id: true,
      name: true,
      description: true,
      uri: true,
      version: true,
    });
  });
});

describe('page envelope', () => {
  const numbers = page(z.number());

  it('needs empty and contents only', () => {
    expect(numbers.parse({ empty: true, contents: [] })).toEqual({ empty: true, contents: [] });
    expect(numbers.safeParse({ contents: [] }).error?.issues.map((issue) => issue.path)).toEqual([['empty']]);
    expect(numbers.safeParse({ empty: true }).error?.issues.map((issue) => issue.path)).toEqual([
      ['contents'],
    ]);
  });

  it('types the header and checks every item', () => {
    const result = numbers.safeParse({ total_items: 1.5, empty: false, contents: [1, 'two'] });
    expect(result.error?.issues.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: ['total_items'], message: 'Invalid input: expected int, received number' },
      { path: ['contents', 1], message: 'Invalid input: expected number, received string' },
    ]);
  });
});

describe('JSON Schema (for the OpenAPI document)', () => {
  const schemas = Object.entries(hsds).flatMap(([name, value]) =>
    value instanceof z.ZodType ? [[name, value] as const] : [],
  );

  it.each(schemas)('%s converts', (_, schema) => {
    expect(() => z.toJSONSchema(schema)).not.toThrow();
  });

  it('keeps field descriptions, formats, enums and extension fields', () => {
    const json = z.toJSONSchema(ServiceListItem) as {
      properties: Record<string, { description?: string; format?: string; enum?: string[] }>;
      required: string[];
      additionalProperties: unknown;
    };
    expect(json.required).toEqual(['id', 'name', 'status']);
    expect(json.additionalProperties).toEqual({});
    expect(json.properties.id).toMatchObject({
      format: 'uuid',
      description: 'Unique identifier of the service.',
    });
    expect(json.properties.status?.enum).toEqual(['active', 'inactive', 'defunct', 'temporarily closed']);
    expect(json.properties.last_modified?.format).toBe('date-time');
    expect(json.properties.assured_date?.format).toBe('date');
    for (const [field, property] of Object.entries(json.properties)) {
      expect(property.description, field).toBeTruthy();
    }
  });
});
