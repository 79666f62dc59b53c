import { schemaRef } from './components.ts';
import { Problem } from './problem-schema.ts';

/** `components.headers`: the response headers the operations document. */
export const headerComponents = {
  ETag: {
    description:
      'Strong validator of the body (a compressed body\'s names its coding, e.g. `"….gzip"`); send it ' +
      'back in If-None-Match to get a 304 while the content is unchanged. Streams (NDJSON, `minimal`) ' +
      'carry none.',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description:
      'How long the response may be cached (HSDS_CACHE_CONTROL, default public, max-age=60). Streams ' +
      '(NDJSON, `minimal`) carry none.',
    schema: { type: 'string' },
  },
  'Last-Modified': {
    description:
      "When the record last changed: a service's last_modified (a service at location's, its service's); " +
      'for other records, when the import last changed what is served (an organization: its own document ' +
      'or any service it lists). Never later than the response: a last_modified in the future gives now.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  'X-Request-Id': {
    description:
      "The request's id, on every response and in the log: the caller's own X-Request-Id when it is plain " +
      '(1 to 128 letters, digits, `_`, `.` or `-`), else a new UUID.',
    schema: { type: 'string' },
  },
};

export const headerRef = (name: keyof typeof headerComponents) => ({
  $ref: `#/components/headers/${name}`,
});

/** The caching headers of every buffered 200 (streamed ones, NDJSON and `minimal`, carry none). */
export const cachingHeaders = { ETag: headerRef('ETag'), 'Cache-Control': headerRef('Cache-Control') };

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: schemaRef(Problem) } },
});

/** `components.responses`: the answers shared by many operations. */
export const responseComponents = {
  NotModified: {
    description: 'The ETag in If-None-Match still matches: the copy the client holds is current.',
    headers: cachingHeaders,
  },
  BadRequest: problem(
    'A parameter or the body is invalid, or a parameter is not one this endpoint takes (unless ' +
      'HSDS_UNKNOWN_PARAMETERS=ignore); `errors` names each one at fault.',
  ),
  NotFound: problem('Nothing exists at this path: no record has this id.'),
  Gone: problem(
    'The record with this id was deleted (a full refresh of its source no longer had it), within the last ' +
      'HSDS_TOMBSTONE_DAYS days (default 30; after them, 404). `deleted_at` says when.',
  ),
  CursorGone: problem(
    'The change feed can no longer answer this cursor: deletions after it were dropped past their ' +
      'retention (HSDS_TOMBSTONE_DAYS), or it is of another feed (the database was made anew or restored ' +
      'from a copy). Read the feed again from its start, without `after`: what it does not list is gone. ' +
      '`oldest_cursor` is the oldest cursor it still answers.',
  ),
  BadHost: problem(
    'Without HSDS_PUBLIC_URL the links are built from the Host header (or, behind a trusted proxy, ' +
      'X-Forwarded-Host and X-Forwarded-Proto): a host that is not a valid host[:port], or a scheme other ' +
      'than http or https, is refused.',
  ),
  PayloadTooLarge: problem('The body is larger than the limit (HSDS_BODY_LIMIT_BYTES).'),
  NotJson: problem(
    'The body is not JSON (`application/json` or another `+json` type), is labelled with a charset ' +
      'other than UTF-8, or is compressed otherwise than with gzip, deflate or br.',
  ),
  Unavailable: {
    ...problem(
      'The database is unreachable or did not answer within HSDS_DB_TIMEOUT_MS (the server reconnects by ' +
        'itself), or it refused a write for lack of disk space. Writes to the management and meta ' +
        'protocols and imports also wait while the database is prepared at start-up (its indexes).',
    ),
    headers: { 'Retry-After': headerRef('Retry-After') },
  },
};

export const responseRef = (name: keyof typeof responseComponents) => ({
  $ref: `#/components/responses/${name}`,
});
