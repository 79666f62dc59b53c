import type { Document } from 'mongodb';

export const META_STATUSES = ['Complete', 'Waiting'] as const;
export type MetaStatus = (typeof META_STATUSES)[number];

/**
 * A meta entry (spec 2.3): every field a string. `recorded_at` is our extension: the full ISO 8601 date-time
 * of creation, since the spec's `timestamp` (`yyyy-mm-dd`) loses the order and time of entries in a day.
 */
export interface MetaEntry {
  id: string;
  timestamp?: string;
  recorded_at: string;
  appid?: string;
  system?: string;
  path?: string;
  verb?: string;
  request_parameters?: string;
  request_headers?: string;
  request_body?: string;
  response_body?: string;
  status?: MetaStatus;
}

/** The spec's `timestamp`: the UTC day of an instant. */
export const dayOf = (instant: Date): string => instant.toISOString().slice(0, 10);

/** A stored entry as served: bookkeeping fields (`_id`, `_import`) are never shown. */
export function servedEntry(stored: Document): MetaEntry {
  return Object.fromEntries(Object.entries(stored).filter(([key]) => !key.startsWith('_'))) as MetaEntry;
}
