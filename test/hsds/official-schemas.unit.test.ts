/*
 * Cross-check against the official HSDS JSON schemas: for our sample records (and the official
 * examples), and for every mutation of them the official schema has an opinion on, zod and ajv must
 * agree on valid or invalid.
 */
import { Ajv2020, type AnySchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import {
  FullLocation,
  FullOrganization,
  FullService,
  FullServiceAtLocation,
  OrganizationListItem,
  ServiceAtLocationListItem,
  ServiceListItem,
  Taxonomy,
  TaxonomyTerm,
  projectionOf,
} from '../../src/hsds/index.ts';
import * as sample from './samples.ts';
import { hasSharedHsds, readSharedJson, sharedHsdsDir, skipReason } from './shared.ts';
import type { Json } from '../../src/json.ts';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

type JsonSchema = {
  $ref?: string;
  type?: string;
  format?: string;
  datapackage_type?: string;
  enum?: string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
};
/**
 * An ajv for the official schemas (JSON Schema 2020-12, the dialect of the official OpenAPI document).
 * The official schemas give dates as Frictionless `datapackage_type: date` rather than a JSON Schema
 * format; ajv is taught that keyword so the official meaning of those fields is checked too.
 */
function officialValidator() {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const isDate = ajv.compile({ type: 'string', format: 'date' });
  ajv.addKeyword({
    keyword: 'datapackage_type',
    schemaType: 'string',
    validate: (type: string, value: unknown) => type !== 'date' || isDate(value) === true,
  });
  for (const file of readdirSync(`${sharedHsdsDir}schema`)) {
    if (file.endsWith('.json') && file !== 'openapi.json')
      ajv.addSchema(readSharedJson(`schema/${file}`) as AnySchemaObject, file);
  }
  return ajv;
}

const resolve = (node: JsonSchema): JsonSchema =>
  node.$ref ? resolve(readSharedJson(`schema/${node.$ref}`) as JsonSchema) : node;

/** Values the official schema rejects for a field: null, a wrong type, a bad enum value or format. */
const badValuesFor = (node: JsonSchema): unknown[] => {
  const bad: unknown[] = [null];
  if (node.enum) bad.push('not-an-allowed-value');
  if (node.type === 'string') bad.push(42);
  if (node.type === 'number') bad.push('42');
  if (node.type === 'array') bad.push({});
  if (node.type === 'object' || node.properties) bad.push('not-an-object');
  const format = node.format ?? (node.datapackage_type === 'date' ? 'date' : undefined);
  const nearMisses: Record<string, string[]> = {
    uuid: ['not-a-uuid', '00000000-0000-4000-8000-00000000001'],
    email: ['not-an-email', 'someone@'],
    uri: ['not a uri', 'example.org/no-scheme'],
    'date-time': ['not-a-date-time', '2024-01-31T10:30:45', '2024-01-31'],
    date: ['not-a-date', '2024-02-30', '2024-1-31'],
  };
  return [...bad, ...(format ? (nearMisses[format] ?? []) : [])];
};
/** Unusual values the official schema accepts for a field of this format, so zod must too. */
const goodValuesFor = (node: JsonSchema): unknown[] =>
  ({
    uuid: ['AC148810-D857-441C-9679-408F346DE14B', 'ac148810-d857-041c-0679-408f346de14b'],
    'date-time': ['2024-01-31T10:30:45+01:00', '2024-01-31T10:30:45Z'],
  })[node.format ?? ''] ?? [];

/** A change to one field of a record: a new value, or `removed`. */
type Mutation = { path: (string | number)[]; key: string; value: unknown };
const removed = Symbol('removed');

/**
 * The mutations of `record` at which the official schema constrains something. The compiled schemas
 * repeat each kind of object in many places: everything is tried at its first occurrence, and removing
 * a required field at every other one (which shows each place is checked with the right object).
 */
function* mutations(
  record: Json,
  node: JsonSchema,
  seen = new Set<string>(),
  path: (string | number)[] = [],
): Generator<Mutation> {
  const kind = Object.keys(node.properties ?? {}).join();
  const firstOfKind = !seen.has(kind);
  seen.add(kind);
  const requiredPresent = (node.required ?? []).filter((key) => key in record);
  for (const key of firstOfKind ? requiredPresent : requiredPresent.slice(0, 1)) {
    yield { path, key, value: removed };
  }
  if (firstOfKind) yield { path, key: 'x_extension', value: 'kept' };
  for (const [key, property] of Object.entries(node.properties ?? {})) {
    if (!(key in record)) continue;
    const field = resolve(property);
    if (firstOfKind) {
      for (const value of [...badValuesFor(field), ...goodValuesFor(field)]) yield { path, key, value };
    }
    const value = record[key];
    if (field.type === 'array' && Array.isArray(value) && field.items) {
      const items = resolve(field.items);
      if (items.properties && value.length > 0)
        yield* mutations(value[0] as Json, items, seen, [...path, key, 0]);
    } else if (field.properties && typeof value === 'object' && value !== null) {
      yield* mutations(value as Json, field, seen, [...path, key]);
    }
  }
}

/** Runs `check` on `root` with the mutation applied, then restores the record. */
function withMutation<T>(root: Json, { path, key, value }: Mutation, check: () => T): T {
  const parent = path.reduce<Json>((object, step) => object[step] as Json, root);
  const had = key in parent;
  const previous = parent[key];
  if (value === removed) delete parent[key];
  else parent[key] = value;
  try {
    return check();
  } finally {
    if (had) parent[key] = previous;
    else delete parent[key];
  }
}

const describeMutation = ({ path, key, value }: Mutation) =>
  `${[...path, key].join('.')} ${value === removed ? 'removed' : `= ${JSON.stringify(value)}`}`;

const example = (name: string) => readSharedJson(`examples/${name}.json`) as Json;
const listExample = (name: string) => (example(name) as { contents: Json[] }).contents;

/** The official shapes, each with the zod schema that stands for it and records to check. */
const cases: [name: string, officialSchema: string, schema: z.ZodType, records: () => Json[]][] = [
  [
    'full service',
    'compiled/service.json',
    FullService,
    () => [sample.fullService(), example('service_full')],
  ],
  [
    'full organization',
    'compiled/organization.json',
    FullOrganization,
    () => [sample.fullOrganization(), example('organization_full')],
  ],
  [
    'full service at location',
    'compiled/service_at_location.json',
    FullServiceAtLocation,
    () => [sample.fullServiceAtLocation(), example('service_at_location_full')],
  ],
  ['location', 'location.json', FullLocation, () => [sample.location(), example('location')]],
  ['taxonomy', 'taxonomy.json', Taxonomy, () => [sample.taxonomy(), example('taxonomy')]],
  [
    'taxonomy term',
    'taxonomy_term.json',
    TaxonomyTerm,
    () => [sample.taxonomyTerm(), example('taxonomy_term')],
  ],
  [
    'service list item',
    'compiled/service_list.json',
    ServiceListItem,
    () => [
      sample.project(sample.fullService(), projectionOf(ServiceListItem)) as Json,
      ...listExample('service_list'),
    ],
  ],
  [
    'organization list item',
    'compiled/organization_list.json',
    OrganizationListItem,
    () => [
      sample.project(sample.organization(), projectionOf(OrganizationListItem)) as Json,
      ...listExample('organization_list'),
    ],
  ],
  [
    'service at location list item',
    'compiled/service_at_location_list.json',
    ServiceAtLocationListItem,
    () => [
      sample.project(sample.fullServiceAtLocation(), projectionOf(ServiceAtLocationListItem)) as Json,
      ...listExample('service_at_location_list'),
    ],
  ],
];

describe.skipIf(!hasSharedHsds)(
  `zod agrees with the official schemas${hasSharedHsds ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    const ajv = hasSharedHsds ? officialValidator() : undefined;
    const validatorFor = (file: string): ValidateFunction =>
      ajv!.getSchema(file) ?? ajv!.compile(readSharedJson(`schema/${file}`) as AnySchemaObject);

    it.each(cases)(
      '%s (%s)',
      (_, file, schema, records) => {
        const official = validatorFor(file);
        const rootNode = readSharedJson(`schema/${file}`) as JsonSchema;
        let checked = 0;
        for (const record of records()) {
          expect(official(record), `official schema accepts the base record`).toBe(true);
          expect(schema.safeParse(record).success, 'zod accepts the base record').toBe(true);
          for (const mutation of mutations(record, rootNode)) {
            withMutation(record, mutation, () =>
              expect(schema.safeParse(record).success, describeMutation(mutation)).toBe(official(record)),
            );
            checked++;
          }
        }
        expect(checked).toBeGreaterThan(20);
      },
      120_000,
    );
  },
);
