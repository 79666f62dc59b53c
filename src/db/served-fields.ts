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
];

/** The projection that gives a stored document as served: everything but the internal fields. */
export const fullProjection: Record<string, 0> = Object.fromEntries(
  INTERNAL_FIELDS.map((field) => [field, 0]),
);

/** The same, keeping these internal fields too (for the reader to take out before serving). */
export const fullProjectionWith = (...kept: string[]): Record<string, 0> =>
  Object.fromEntries(INTERNAL_FIELDS.filter((field) => !kept.includes(field)).map((field) => [field, 0]));
