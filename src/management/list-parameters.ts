import type { ParsedUrlQuery } from 'node:querystring';
import type { Document, Filter, Sort } from 'mongodb';
import { z } from 'zod';
import { invalidParameters } from '../auth/protocol-errors.ts';
import { queryInteger } from '../http/query-integer.ts';

/** Items on a page of a management list when the caller does not say. */
export const DEFAULT_PER_PAGE = 25;
/** Spec part 8: management lists serve at most 100 items a page. */
export const MAX_PER_PAGE = 100;

/** Which fields of a record each list parameter works on. */
export interface ListFields {
  /** Fields `query` searches, as text. */
  searched: readonly string[];
  /** Fields `queries` may name. */
  filterable: readonly string[];
  /** Fields `sortby` may name; the first is the default. */
  sortable: readonly [string, ...string[]];
}

/** A parsed list request: what to select, in which order, and which page of it. */
export interface ListRequest {
  filter: Filter<Document>;
  sort: Sort;
  page: number;
  perPage: number;
}

const text = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/** `query` matches case-insensitively anywhere in a field; its characters are all literal. */
const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What each list parameter accepts, from the text of a query string, for a list of records with these fields. */
export const listParametersSchema = (fields: ListFields) =>
  z.object({
    query: text.optional(),
    queries: text
      .transform(splitQueries)
      .pipe(z.array(fieldCondition(fields.filterable)))
      .optional(),
    page: queryInteger(1, 1_000_000).default(1),
    per_page: queryInteger(1, MAX_PER_PAGE).default(DEFAULT_PER_PAGE),
    sortby: z
      .enum(fields.sortable, `must be one of ${fields.sortable.join(', ')}`)
      .default(fields.sortable[0]),
    order: z.enum(['asc', 'desc'], "must be 'asc' or 'desc'").default('asc'),
  });

/**
 * The list parameters of spec part 4.5, from a query string: `query` (text in any searched field),
 * `queries` (comma-separated `field:value` pairs, each an exact match on a filterable field; `\,` is a
 * comma in a value), `page`, `per_page`, `sortby` and `order`. Every condition must hold; other parameters,
 * and malformed ones, are dealt with as `parseQueryParameters` says.
 */
export function parseListParameters(fields: ListFields, query: ParsedUrlQuery): ListRequest {
  const {
    query: words,
    queries,
    page,
    per_page,
    sortby,
    order,
  } = parseQueryParameters(listParametersSchema(fields), query);
  const direction = order === 'asc' ? 1 : -1;
  const conditions: Filter<Document>[] = [
    ...(words === undefined
      ? []
      : [
          {
            $or: fields.searched.map((field) => ({
              [field]: { $regex: escapeRegExp(words), $options: 'i' },
            })),
          },
        ]),
    ...(queries ?? []).map(({ field, value }) => ({ [field]: value })),
  ];
  return {
    filter: conditions.length > 0 ? { $and: conditions } : {},
    // Ties are broken by id, so that pages neither repeat nor skip items.
    sort: sortby === 'id' ? { id: direction } : { [sortby]: direction, id: direction },
    page,
    perPage: per_page,
  };
}

/**
 * The pairs of `queries`, split at each comma but those escaped: `\,` stands for a comma in a value (a
 * name such as "Lovelace, Ada") and `\\` for a backslash; any other backslash is itself.
 */
function splitUnescaped(text: string): string[] {
  const parts: string[] = [];
  let part = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const next = text[i + 1];
    if (char === '\\' && (next === ',' || next === '\\')) {
      part += next;
      i++;
    } else if (char === ',') {
      parts.push(part);
      part = '';
    } else part += char;
  }
  parts.push(part);
  return parts;
}

const splitQueries = (queries: string) =>
  splitUnescaped(queries)
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const colon = pair.indexOf(':');
      return colon < 0
        ? { field: pair, value: '' }
        : { field: pair.slice(0, colon), value: pair.slice(colon + 1) };
    });

const fieldCondition = (filterable: readonly string[]) =>
  z.object({
    field: z
      .string()
      .refine((field) => filterable.includes(field), `may name only the fields ${filterable.join(', ')}`),
    value: z.string().min(1, "must be 'field:value' pairs with a value"),
  });

/**
 * The parameters `schema` knows, from a query string, as the protocols read them (the meta list's paging
 * too): others are ignored, an empty one is as if not given, and one given twice or malformed is a 400
 * naming each such (never quoting a value).
 */
export function parseQueryParameters<Schema extends z.ZodObject>(
  schema: Schema,
  query: ParsedUrlQuery,
): z.output<Schema> {
  const given: Record<string, string> = {};
  const repeated: { parameter: string; message: string }[] = [];
  for (const name of Object.keys(schema.shape)) {
    const value = query[name];
    if (Array.isArray(value)) repeated.push({ parameter: name, message: 'must be given once' });
    else if (value !== undefined && value !== '') given[name] = value;
  }
  const parsed = schema.safeParse(given);
  const malformed = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ parameter: String(issue.path[0]), message: issue.message }));
  if (!parsed.success || repeated.length > 0) throw invalidParameters([...repeated, ...malformed]);
  return parsed.data;
}
