import { FLAG_SPELLINGS } from '../boolean-flag.ts';
import { HSDS_VERSION } from '../directory/root.ts';
import { componentSchemas } from './components.ts';
import { directoryPaths } from './directory-paths.ts';
import { changesPaths } from './changes-paths.ts';
import { documentationPaths } from './documentation-paths.ts';
import { healthPaths } from './health-paths.ts';
import { importPaths } from './import-paths.ts';
import { managementPaths } from './management-paths.ts';
import { metaPaths } from './meta-paths.ts';
import { parameterComponents } from './parameters.ts';
import { protocolResponseComponents } from './protocol-responses.ts';
import { pathsWithRequestId, responsesWithRequestId } from './request-id-header.ts';
import { headerComponents, responseComponents } from './responses.ts';
import { securitySchemes } from './security.ts';

const tags = [
  { name: 'root', description: 'What this API is.' },
  { name: 'services', description: 'Services provided by organizations.' },
  { name: 'organizations', description: 'Organizations that provide services.' },
  { name: 'service_at_locations', description: 'Services as delivered at each location.' },
  { name: 'taxonomies', description: 'Classification schemes.' },
  { name: 'taxonomy_terms', description: 'Terms of the taxonomies, classifying the records.' },
  {
    name: 'changes',
    description: 'The change feed (our extension): what changed since a cursor, for keeping a copy in sync.',
  },
  { name: 'operations', description: 'Health and metrics, for orchestrators and monitoring.' },
  { name: 'documentation', description: 'This description, the profile and the API reference.' },
  {
    name: 'Management',
    description:
      'The management protocol (spec part 4.5), **experimental**: users, and their access entries (grants of ' +
      'a path and verb). Served under a prefix, as its `/services/` would collide with the core protocol’s.',
  },
  {
    name: 'Meta',
    description:
      'The meta protocol (spec part 4.6), **experimental**: the audit trail of management calls, meta ' +
      'writes and imports (and core reads, if configured), and entries clients write. Entries are kept ' +
      'for good unless the server is configured with a retention in days (`HSDS_META_RETENTION_DAYS`); ' +
      'older entries, except those still `Waiting`, are then removed hourly.',
  },
  { name: 'Bulk loading', description: 'Loading HSDS data over HTTP (our extension), for aggregators.' },
];

/** Spellings as Markdown code: `true`, `1`, `yes`. */
const spelled = (spellings: readonly string[]) => spellings.map((spelling) => `\`${spelling}\``).join(', ');

const description = (baseUrl: string) =>
  `Open Referral Human Services Data Specification (HSDS) 3.0 API: the core read protocol.

Our profile, in brief (the full list of decisions is at [/profile](${baseUrl}/profile)):

- Lists: \`page\` counts from 1; \`per_page\` defaults to 50, at most 1000. Items are ordered by \`id\`
  (nearest first with \`proximity\`; on pages, equal distances by id). \`format=ndjson\` streams every match unpaged; \`minimal=true\` (services)
  answers one array of \`{id, modified_date}\` (NDJSON with \`format=ndjson\`); \`full=true\` gives fully nested items.
- POST on a list takes the same parameters in the query or as a JSON object body (body values win).
  A parameter the endpoint does not take is a 400 naming it and listing those it takes (unless
  HSDS_UNKNOWN_PARAMETERS=ignore), as is a known one given twice or malformed (paging parameters of an
  unpaged answer, ndjson or \`minimal\`, are ignored even then).
- Flags (\`full\`, \`minimal\`, \`full_service\`, \`top_only\`; \`dry_run\` and \`wait\` of \`POST /import\`)
  take ${spelled(FLAG_SPELLINGS.true)} or ${spelled(FLAG_SPELLINGS.false)}, in any case; a JSON body may give them as booleans.
- Our extension on /services and /service_at_locations: \`age\`, \`open_at\`, \`day\` with \`time\`, and
  \`open_now\` find who is eligible and what is open when, from weekly schedules (see /profile).
- \`search\` matches whole words in any of their forms (plurals and common English inflections; case- and
  accent-insensitive; one without a letter or digit finds nothing), services also by the towns and postal
  codes where offered, services at location by their location's address;
  \`taxonomy_term_id\` also matches the terms below it; \`top_only=true\` lists the terms without a parent.
- Errors are \`application/problem+json\` (RFC 9457). While the database is unreachable or hung, requests that
  need it answer 503 with \`Retry-After\` within HSDS_DB_TIMEOUT_MS, as does a write it refuses for lack of
  disk space. A stream (\`format=ndjson\`, \`minimal=true\`) that fails once started is cut short (the
  connection is closed), never ended as if complete.
- Buffered 200s carry a strong \`ETag\` and \`Cache-Control\`; \`If-None-Match\` is answered with 304. A
  server sends a record or page it sent before again from memory; a change an import makes is served by every
  server within ¼ s of the import's end (see /profile).
  Every response carries \`X-Request-Id\`.

The experimental management and meta protocols, and \`POST /import\`, need credentials (\`x-appid\` and
\`x-appkey\` headers, or HTTP Basic) and an access entry granting the path and verb; every refusal is the
same 403, and repeated failures get 429. Their errors carry \`code\` and \`message\` besides the problem details.`;

/**
 * Everything in the document but what depends on the base URL, by management prefix (one per
 * configuration); each generated once, on first use.
 */
const described = new Map<string, ReturnType<typeof describeApi>>();

function describeApi(managementPrefix: string) {
  return {
    tags,
    paths: pathsWithRequestId({
      ...directoryPaths(),
      ...changesPaths(),
      ...healthPaths(),
      ...documentationPaths(),
      ...managementPaths(managementPrefix),
      ...metaPaths(),
      ...importPaths(),
    }),
    components: {
      schemas: componentSchemas(),
      parameters: parameterComponents(),
      responses: responsesWithRequestId({ ...responseComponents, ...protocolResponseComponents }),
      headers: headerComponents,
      securitySchemes,
    },
  };
}

/**
 * The OpenAPI 3.1 description of everything this server answers, for clients reaching it at `baseUrl`,
 * with the management protocol under `managementPrefix` (HSDS_MANAGEMENT_PREFIX).
 */
export function openApiDocument(baseUrl: string, managementPrefix: string) {
  let rest = described.get(managementPrefix);
  if (rest === undefined) {
    rest = describeApi(managementPrefix);
    described.set(managementPrefix, rest);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'HSDS 3.0 API', version: HSDS_VERSION, description: description(baseUrl) },
    servers: [{ url: baseUrl }],
    ...rest,
  };
}
