import * as z from 'zod';

/**
 * String formats the official HSDS schemas declare, as zod types. Each field adds its own description.
 *
 * - `Uuid`: `format: uuid`. RFC 4122 defines the textual form as 8-4-4-4-12 hex digits; the version and
 *   variant nibbles are not checked (z.guid), so ids minted by other systems still validate, as with ajv.
 * - `IsoDate`, `IsoTime`: the official schemas mark these as Frictionless `datapackage_type` date and time
 *   (which JSON Schema validators ignore); the spec fixes dates as `YYYY-MM-DD` and times as `HH:MM:SS`.
 *   Times also accept `HH:MM`, as used by the official location example, and a `Z` or `±HH:MM` offset, as
 *   the schedule schema's own description asks (`09:00-05:00` for 9am EST).
 * - `IsoDateTime`: `format: date-time` (RFC 3339), so a `Z` or a numeric UTC offset is required.
 */
export const Uuid = z.guid({ error: 'Invalid UUID' });
export const IsoDate = z.iso.date();
export const IsoTime = z.string().regex(
  // As the tabular form's time pattern takes them (src/ingest/sources/table-field.ts).
  /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/,
  'Invalid ISO time',
);
export const IsoDateTime = z.iso.datetime({ offset: true });
export const Uri = z.url();
export const Email = z.email();
