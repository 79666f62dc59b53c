/**
 * The official HSDS 3.0 JSON schemas (kept beside the repository, in ../shared/hsds), compiled with ajv to
 * check what the API serves. Suites that need them skip, with `officialSchemasMissing` as the reason,
 * when the folder is absent.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type AnySchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = formatsModule as unknown as typeof formatsModule.default;

const sharedHsdsFolder = fileURLToPath(new URL('../../../shared/hsds/', import.meta.url));
const schemaFolder = `${sharedHsdsFolder}schema/`;

export const officialSchemasPresent = existsSync(sharedHsdsFolder);

export const officialSchemasMissing = `official HSDS schemas not found at ${schemaFolder}: schema validation skipped`;

/** The schemas a read-protocol response is checked against. */
export type OfficialSchemaName =
  | 'service'
  | 'service_list'
  | 'organization'
  /** `compiled/organization.json` without `services`: an organization whose services are ids only. */
  | 'organization_with_service_ids'
  | 'organization_list'
  | 'service_at_location'
  | 'service_at_location_list'
  | 'taxonomy'
  | 'taxonomy_term';

export type OfficialSchemas = Record<OfficialSchemaName, ValidateFunction>;

const readSchema = (relativePath: string) =>
  JSON.parse(readFileSync(`${schemaFolder}${relativePath}`, 'utf8')) as AnySchemaObject;

/**
 * The schemas carry no `$schema`; the official OpenAPI 3.1 document that embeds them declares the
 * 2020-12 dialect, so that is the dialect used. `strict: false` because they also carry Table Schema
 * keywords (`constraints`, `core`, `example`…). Their dates, times and date-times are given as Frictionless
 * `datapackage_type` rather than a JSON Schema `format`; ajv is taught that keyword so those are checked too.
 */
export function loadOfficialSchemas(): OfficialSchemas {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const formatOf: Record<string, string> = { date: 'date', time: 'iso-time', datetime: 'date-time' };
  const checkers = new Map(
    Object.entries(formatOf).map(([type, format]) => [type, ajv.compile({ type: 'string', format })]),
  );
  ajv.addKeyword({
    keyword: 'datapackage_type',
    schemaType: 'string',
    validate: (type: string, value: unknown) => checkers.get(type)?.(value) ?? true,
  });
  // The per-object schemas refer to each other by file name (taxonomy_term.json → taxonomy.json).
  for (const file of readdirSync(schemaFolder)) {
    if (file.endsWith('.json') && file !== 'openapi.json') ajv.addSchema(readSchema(file), file);
  }
  const organization = readSchema('compiled/organization.json');
  const { services: _services, ...otherProperties } = organization.properties as Record<string, unknown>;
  const compiled = (name: string) => ajv.compile(readSchema(`compiled/${name}.json`));
  return {
    service: compiled('service'),
    service_list: compiled('service_list'),
    organization: ajv.compile(organization),
    organization_with_service_ids: ajv.compile({
      ...organization,
      properties: otherProperties,
      required: (organization.required as string[]).filter((field) => field !== 'services'),
    }),
    organization_list: compiled('organization_list'),
    service_at_location: compiled('service_at_location'),
    service_at_location_list: compiled('service_at_location_list'),
    taxonomy: ajv.getSchema('taxonomy.json')!,
    taxonomy_term: ajv.getSchema('taxonomy_term.json')!,
  };
}

/** Why `value` fails the schema, one readable line per error; empty when it is valid. */
export function schemaErrors(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
  );
}
