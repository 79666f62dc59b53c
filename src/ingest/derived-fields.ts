import { pointOf } from '../geo/indexable.ts';
import { coverageOf } from '../geo/service-area.ts';
import { openingFields, type OpeningFields } from '../hours/weekly-hours.ts';
import { keywordsOf } from '../search/keywords.ts';
import type { RootEntity } from '../hsds/entities.ts';
import { isJsonObject, type Json } from '../json.ts';

/**
 * Fields a stored document carries for queries only (never served): the words of its searchable text,
 * the taxonomy terms and taxonomies classifying it, and the geometry postcode and proximity search use.
 */
export interface DerivedFields {
  _search: string[];
  _terms?: string[];
  _taxonomies?: string[];
  /** Whether any service-area data could be read: postcode search keeps results without (spec 4.4). */
  _geo?: { point?: Json; areas?: Json[]; postcodes?: string[]; covered?: boolean };
  /** `last_modified` as a date, for `modified_after` whatever zone offset the publisher wrote. */
  _modified?: Date;
  /** The ages a service admits, for `age`: a missing bound is open (0 and AGE_UNBOUNDED). */
  _age_min?: number;
  _age_max?: number;
}

/** Above any age: what a service without a maximum age admits up to. */
const AGE_UNBOUNDED = 1000;

/**
 * The opening fields of a list of schedules, by the list: a service's services at location without
 * schedules of their own take its list, the same array, so it is worked out once for all of them. Composed
 * documents are not changed once composed, and the fields derived from them are only written.
 */
const openingOfSchedules = new WeakMap<object, OpeningFields | undefined>();

function openingOf(schedules: unknown): OpeningFields | undefined {
  if (!Array.isArray(schedules)) return undefined;
  if (openingOfSchedules.has(schedules)) return openingOfSchedules.get(schedules);
  const fields = openingFields(list(schedules));
  openingOfSchedules.set(schedules, fields);
  return fields;
}

/** The eligible ages and the opening sessions of a service (a service at location: of its service, and its own schedules, else its service's). */
function eligibilityAndHours(
  service: Json,
  schedules: unknown,
): Partial<OpeningFields> & Pick<DerivedFields, '_age_min' | '_age_max'> {
  const bound = (value: unknown, otherwise: number) =>
    typeof value === 'number' && Number.isFinite(value) ? value : otherwise;
  return {
    _age_min: bound(service.minimum_age, 0),
    _age_max: bound(service.maximum_age, AGE_UNBOUNDED),
    ...openingOf(schedules),
  };
}

export function deriveFields(
  root: RootEntity,
  document: Json,
): { fields: DerivedFields; warnings: string[] } {
  switch (root) {
    case 'service':
      return forService(document);
    case 'service_at_location':
      return forServiceAtLocation(document);
    case 'organization':
      return { fields: { _search: searchable(document), ...classification(document) }, warnings: [] };
    case 'taxonomy_term':
      return {
        fields: { _search: keywordsOf(document.name, document.description, document.code) },
        warnings: [],
      };
    case 'taxonomy':
      return { fields: { _search: searchable(document) }, warnings: [] };
  }
}

function forService(service: Json) {
  const coverage = coverageOf(list(service.service_areas));
  const organization = asObject(service.organization);
  return {
    fields: {
      _search: keywordsOf(
        ...searchableTexts(service),
        organization?.name,
        ...list(service.attributes).map((attribute) => asObject(attribute.taxonomy_term)?.name),
        // Where it is offered: a search for a town or a postal code finds what is there.
        ...list(service.service_at_locations).flatMap((pairing) =>
          addressesOf(asObject(pairing.location)).flatMap((address) => [address.city, address.postal_code]),
        ),
      ),
      ...classification(service),
      _geo: geoFields(undefined, coverage),
      ...modified(service.last_modified),
      ...eligibilityAndHours(service, service.schedules),
    },
    warnings: coverage.problems,
  };
}

function forServiceAtLocation(serviceAtLocation: Json) {
  const service = asObject(serviceAtLocation.service) ?? {};
  const location = asObject(serviceAtLocation.location);
  const warnings: string[] = [];
  let point: Json | undefined;
  if (location && (location.latitude !== undefined || location.longitude !== undefined)) {
    const result = pointOf(location.latitude, location.longitude);
    if ('point' in result) point = result.point;
    else warnings.push(`location ${String(location.id)}: ${result.problem}; left out of proximity search`);
  }
  // Coverage is the pairing's own service areas, else its service's.
  const own = list(serviceAtLocation.service_areas);
  const coverage = coverageOf(own.length > 0 ? own : list(service.service_areas));
  warnings.push(...coverage.problems.map((problem) => `${problem}; left out of postcode search`));
  return {
    fields: {
      _search: keywordsOf(
        serviceAtLocation.description,
        ...searchableTexts(service),
        asObject(service.organization)?.name,
        location?.name,
        ...addressesOf(location).flatMap((address) => [
          address.address_1,
          address.address_2,
          address.city,
          address.postal_code,
        ]),
        ...list(service.attributes).map((attribute) => asObject(attribute.taxonomy_term)?.name),
      ),
      ...classification(service),
      _geo: geoFields(point, coverage),
      ...modified(service.last_modified),
      // Its own schedules where it has any, else its service's.
      ...eligibilityAndHours(
        service,
        list(serviceAtLocation.schedules).length > 0 ? serviceAtLocation.schedules : service.schedules,
      ),
    },
    warnings,
  };
}

function geoFields(point: Json | undefined, coverage: ReturnType<typeof coverageOf>): DerivedFields['_geo'] {
  const geo: NonNullable<DerivedFields['_geo']> = {};
  if (point) geo.point = point;
  if (coverage.areas.length > 0) geo.areas = coverage.areas;
  if (coverage.postcodes.length > 0) geo.postcodes = coverage.postcodes;
  if (geo.areas || geo.postcodes) geo.covered = true;
  return geo;
}

function modified(lastModified: unknown): Pick<DerivedFields, '_modified'> {
  const date = typeof lastModified === 'string' ? new Date(lastModified) : undefined;
  return date && !Number.isNaN(date.getTime()) ? { _modified: date } : {};
}

/** The taxonomy terms (and their taxonomies) a record's own attributes apply. */
function classification(record: Json): Pick<DerivedFields, '_terms' | '_taxonomies'> {
  const terms = new Set<string>();
  const taxonomies = new Set<string>();
  for (const attribute of list(record.attributes)) {
    const term = asObject(attribute.taxonomy_term);
    const termId = attribute.taxonomy_term_id ?? term?.id;
    if (typeof termId === 'string') terms.add(termId);
    const taxonomyId = term?.taxonomy_id ?? asObject(term?.taxonomy_detail)?.id;
    if (typeof taxonomyId === 'string') taxonomies.add(taxonomyId);
  }
  return { _terms: [...terms], _taxonomies: [...taxonomies] };
}

const searchableTexts = (record: Json) => [record.name, record.alternate_name, record.description];
const searchable = (record: Json) => keywordsOf(...searchableTexts(record));

/** A location's street addresses: a postal one (a PO box, a head office's mail) is not where a service is. */
const addressesOf = (location: Json | undefined): Json[] =>
  list(location?.addresses).filter((address) => (address.address_type ?? 'physical') === 'physical');

const asObject = (value: unknown): Json | undefined => (isJsonObject(value) ? value : undefined);

const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);
