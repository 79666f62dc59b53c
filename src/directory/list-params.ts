import { z } from 'zod';
import { booleanFlag } from '../boolean-flag.ts';
import { isCalendarDay } from '../calendar-day.ts';
import { HttpProblem, invalidRequest } from '../http/problem.ts';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../http/paging.ts';
import { queryInteger } from '../http/query-integer.ts';
import { isJsonObject, type Json } from '../json.ts';
import { DAY_CODES } from '../hours/weekly-hours.ts';

const text = z.string({ error: 'must be a string' }).trim().max(500, 'is too long');

/**
 * ISO 8601 date (`2025-06-01`) or date-time with a zone (`2025-06-01T08:00:00Z`, `…+02:00`, `…+0200`,
 * `…+02`; JavaScript's Date reads the last as no date, so it is given its minutes).
 */
const instant = z
  .string({ error: 'must be an ISO 8601 date or date-time' })
  .trim()
  .refine(
    (value) =>
      /^\d{4}-\d{2}-\d{2}$/.test(value) ||
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i.test(value),
    'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone',
  )
  .refine((value) => isCalendarDay(value.slice(0, 10)), 'is not a real date')
  .transform(
    (value) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value.replace(/([+-]\d{2})$/, '$1:00')),
  )
  // The day is real (above): the time of day or the zone's offset is what cannot be.
  .refine(
    (date) => !Number.isNaN(date.getTime()),
    'has an hour, minute, second or zone offset out of range (offsets go to ±23:59)',
  );

const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i;

/** A decimal number from the query string (a JSON body gives it as a number); Number() would also read `0x10`. */
const decimal = (schema: z.ZodNumber) =>
  z.preprocess((value) => (typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value), schema);

/** Schedules unbounded in time are in force from 0001-01-01 to 9999-12-31 (src/hours/weekly-hours.ts). */
const EARLIEST_INSTANT = new Date('0001-01-02T00:00:00Z');
const LATEST_INSTANT = new Date('9999-12-30T00:00:00Z');

/** An instant: an ISO 8601 date-time with a time zone (a date alone is no instant). */
const dateTime = z
  .string({ error: 'must be an ISO 8601 date-time with a time zone' })
  .trim()
  .refine(
    // A date and a time with their zone; `instant` checks the rest (and would offer a date alone).
    (value) => /T.*(Z|[+-]\d{2}(:?\d{2})?)$/i.test(value),
    'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-27T09:30:00-05:00',
  )
  .pipe(instant)
  .refine(
    (date) => date >= EARLIEST_INSTANT && date < LATEST_INSTANT,
    'must be from 0001-01-02 to 9999-12-29 (UTC)',
  );

/** Every parameter of every core list endpoint, by name; each endpoint picks the ones it takes. */
export const parameters = {
  page: queryInteger(1, 1_000_000).default(1).describe('Page number, counting from 1.'),
  per_page: queryInteger(1, MAX_PER_PAGE)
    .default(DEFAULT_PER_PAGE)
    .describe(`Items per page, at most ${MAX_PER_PAGE}; use format=ndjson to fetch everything.`),
  format: z
    .enum(['json', 'ndjson'], { error: "must be 'json' or 'ndjson'" })
    .default('json')
    .describe(
      'json: one page. ndjson: every match, one JSON object a line, unpaged (page and per_page ignored).',
    ),
  search: text
    .optional()
    .describe(
      'Words that must all appear in the record, in any of their forms (case- and accent-insensitive; ' +
        'plurals and common English inflections match): see the profile for the fields searched.',
    ),
  taxonomy_term_id: text
    .optional()
    .describe('Records classified with this taxonomy term or any term below it.'),
  taxonomy_id: text.optional().describe('Records classified with any term of this taxonomy.'),
  organization_id: text.optional().describe('Records of the organization with this id.'),
  modified_after: instant
    .optional()
    .describe(
      'Records modified on or after this ISO 8601 date (midnight UTC) or date-time with a time zone, ' +
        'e.g. 2025-06-01 or 2025-06-01T08:00:00Z.',
    ),
  minimal: booleanFlag
    .default(false)
    .describe(
      'true: a plain JSON array of {id, modified_date} for every match, unpaged (with format=ndjson, one a line).',
    ),
  full: booleanFlag.default(false).describe('true: fully nested items instead of one-to-one fields.'),
  full_service: booleanFlag
    .default(false)
    .describe(
      "true: an organization's services fully nested instead of by id (on lists with full=true: list " +
        'items carry no services otherwise).',
    ),
  top_only: booleanFlag
    .default(false)
    .describe('true: only the terms at the top of their hierarchy (no parent).'),
  parent_id: text.optional().describe('Only the direct children of the term with this id.'),
  postcode: text
    .optional()
    .describe(
      'Only results whose service area covers this postcode: an area listing it, or a polygon containing ' +
        'its centroid (results with no service area are kept). A postcode we cannot place matches listed ' +
        'postcodes only (with proximity it is a 400).',
    ),
  proximity: decimal(
    z
      .number({ error: 'must be a distance in metres' })
      .positive('must be a positive distance in metres')
      .max(20_037_508, 'must be at most half the circumference of the earth in metres'),
  )
    .optional()
    .describe(
      "Only results within this many metres of the postcode's centroid, nearest first; on pages, equal distances by id (needs postcode).",
    ),
  age: decimal(
    z
      .number({ error: 'must be an age in years' })
      .min(0, 'must not be negative')
      .max(150, 'must be at most 150'),
  )
    .optional()
    .describe(
      'Our extension: records whose eligibility admits this age in years (minimum_age and maximum_age ' +
        'of the service; a missing bound is open).',
    ),
  open_at: dateTime
    .optional()
    .describe(
      'Our extension: records open at this instant (an ISO 8601 date-time with a time zone), by their ' +
        "weekly schedules in each schedule's own time zone; a service at location by its own schedules, " +
        "else its service's. See the profile for the schedules understood.",
    ),
  day: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
      z.enum(DAY_CODES, { error: 'must be a day code: MO, TU, WE, TH, FR, SA or SU' }),
    )
    .optional()
    .describe(
      "Our extension, with time: records open on this weekday at time, in each schedule's local time.",
    ),
  time: z
    .string({ error: 'must be a time of day, HH:MM' })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day, HH:MM (00:00 to 23:59)')
    .transform((value) => Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5)))
    .optional()
    .describe('Our extension, with day: the local time of day, HH:MM.'),
  open_now: booleanFlag
    .default(false)
    .describe('Our extension: true: records open at the time of the request (as open_at).'),
} as const;

export type ParameterName = keyof typeof parameters;

const PAGING = new Set<string>(['page', 'per_page']);

/** What an endpoint does with a parameter it does not take (HSDS_UNKNOWN_PARAMETERS). */
export type UnknownParameters = 'reject' | 'ignore';

/** An error for each of `given` that is not one of `names`, saying which are. */
function unknownParameters(names: readonly string[], given: readonly string[]) {
  const known = new Set<string>(names);
  const accepted = names.length === 0 ? 'it takes none' : `it takes ${[...names].sort().join(', ')}`;
  return given
    .filter((name) => !known.has(name))
    .map((parameter) => ({ parameter, message: `is not a parameter of this endpoint (${accepted})` }));
}

/**
 * Parses the parameters an endpoint takes from the query string and, for POST, a JSON object body
 * (body values win). A known one given twice or malformed is a 400 that names it, except paging
 * parameters of an unpaged answer, which are ignored. A parameter the endpoint does not take is a 400
 * too, naming it and listing those it takes (a misspelt filter would otherwise look like one that
 * worked), unless `unknown` is 'ignore' (HSDS_UNKNOWN_PARAMETERS).
 */
export function parseListParameters<Names extends ParameterName>(
  names: readonly Names[],
  query: Record<string, string | string[] | undefined>,
  body: unknown,
  unknown: UnknownParameters,
) {
  if (body !== undefined && !isJsonObject(body)) {
    throw new HttpProblem(400, 'The request body must be a JSON object of list parameters.', {
      errors: [{ field: '$', message: 'must be a JSON object' }],
    });
  }
  const given: Json = { ...query, ...body };
  let errors: { parameter: string; message: string }[] = [];
  const values: Record<string, unknown> = {};
  for (const name of names) {
    const value = given[name];
    if (Array.isArray(value) && name in query && !(body && name in body)) {
      errors.push({ parameter: name, message: 'must be given once' });
      continue;
    }
    // A blank value is the parameter left out, as a form's empty field sends it (profile).
    const parsed = parameters[name].safeParse(
      typeof value === 'string' && value.trim() === '' ? undefined : value,
    );
    if (parsed.success) values[name] = parsed.data;
    else errors.push({ parameter: name, message: parsed.error.issues[0]?.message ?? 'is invalid' });
  }
  if (unknown === 'reject') errors.push(...unknownParameters(names, Object.keys(given)));
  // An unpaged answer (a stream, `minimal`) ignores paging, even malformed: a paged query reused as it is
  // still streams.
  const unpaged = values.format === 'ndjson' || values.minimal === true;
  if (unpaged) errors = errors.filter((error) => !PAGING.has(error.parameter));
  if (errors.length > 0) throw invalidRequest('Invalid parameters', 'parameter', errors);
  return values as { [Name in Names]: z.output<(typeof parameters)[Name]> };
}
