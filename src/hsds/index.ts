/**
 * The HSDS 3.0 data model as zod schemas, following the official JSON schemas (openreferral/specification,
 * branch 3.0) for required fields, types, formats and allowed values, plus the additions the spec lists
 * that those schemas predate (links, capacities and units, attribute `label`, service-at-location
 * `service_areas`).
 *
 * Extensions: HSDS lets publishers add fields, so every object is a loose object that keeps unknown keys.
 *
 * Null: not accepted for optional fields. The official schemas type every optional field with its plain
 * type (`"type": "string"`, never `["string", "null"]`) and no official example contains a null, so a
 * null is invalid HSDS: an absent value is an absent key. Data sources that send nulls must drop them
 * before validation.
 */
export * from './accessibility.ts';
export * from './address.ts';
export * from './attribute.ts';
export * from './capacity.ts';
export * from './contact.ts';
export * from './cost_option.ts';
export * from './formats.ts';
export * from './full.ts';
export * from './funding.ts';
export * from './language.ts';
export * from './link.ts';
export * from './lists.ts';
export * from './location.ts';
export * from './metadata.ts';
export * from './one_to_one.ts';
export * from './organization.ts';
export * from './organization_identifier.ts';
export * from './page.ts';
export * from './phone.ts';
export * from './program.ts';
export * from './required_document.ts';
export * from './root_info.ts';
export * from './schedule.ts';
export * from './service.ts';
export * from './service_area.ts';
export * from './service_at_location.ts';
export * from './taxonomy.ts';
export * from './taxonomy_term.ts';
export * from './unit.ts';
