import type { Document } from 'mongodb';

/**
 * Fields a stored document keeps for queries and bookkeeping (`_search`, `_geo`, `_deps`, …); never served.
 * The ingest writes them, the read protocol leaves them out.
 */
export const INTERNAL_FIELDS = [
  '_id',
  '_search',
  '_terms',
  '_taxonomies',
  '_geo',
  '_deps',
  '_hash',
  '_modified',
  '_changed',
  '_json',
  '_item',
  '_etag',
  '_head',
  '_organization_at',
  '_input',
  '_age_min',
  '_age_max',
  '_open_keys',
  '_open_local',
  '_open_utc',
  '_open_zoneless',
];

/** The projection that gives a stored document as served: everything but the internal fields. */
export const fullProjection: Record<string, 0> = Object.fromEntries(
  INTERNAL_FIELDS.map((field) => [field, 0]),
);

/**
 * When a stored document changed: `_modified` (its `last_modified` as a date; a service at location's, its
 * service's) and `_changed` (when what is served of it last changed).
 */
export const CHANGE_TIME_FIELDS = ['_modified', '_changed'] as const;

/** `fullProjection` keeping the change times, which the reader takes out (`takeChangeTimes`) before serving. */
export const fullProjectionWithChangeTimes: Record<string, 0> = Object.fromEntries(
  INTERNAL_FIELDS.filter((field) => !(CHANGE_TIME_FIELDS as readonly string[]).includes(field)).map(
    (field) => [field, 0],
  ),
);

/** Takes the change times out of a document read with them, and gives them. */
export function takeChangeTimes(document: Document): { modified: unknown; changed: unknown } {
  const { _modified: modified, _changed: changed } = document;
  for (const field of CHANGE_TIME_FIELDS) delete document[field];
  return { modified, changed };
}
