import { HSDS_VERSION } from '../directory/root.ts';
import { componentSchemas } from './components.ts';
import { directoryPaths } from './directory-paths.ts';
import { documentationPaths } from './documentation-paths.ts';
import { healthPaths } from './health-paths.ts';
import { parameterComponents } from './parameters.ts';
import { headerComponents, responseComponents } from './responses.ts';

const tags = [
  { name: 'root', description: 'What this API is.' },
  { name: 'services', description: 'Services provided by organizations.' },
  { name: 'organizations', description: 'Organizations that provide services.' },
  { name: 'service_at_locations', description: 'Services as delivered at each location.' },
  { name: 'taxonomies', description: 'Classification schemes.' },
  { name: 'taxonomy_terms', description: 'Terms of the taxonomies, classifying the records.' },
  { name: 'operations', description: 'Health and metrics, for orchestrators and monitoring.' },
  { name: 'documentation', description: 'This description, the profile and the API reference.' },
];

const description = (baseUrl: string) =>
  `Open Referral Human Services Data Specification (HSDS) 3.0 API: the core read protocol.

Our profile, in brief (the full list of decisions is at [/profile](${baseUrl}/profile)):

- Lists: \`page\` counts from 1; \`per_page\` defaults to 50, at most 1000. Items are ordered by \`id\`
  (nearest first with \`proximity\`). \`format=ndjson\` streams every match unpaged; \`minimal=true\` (services)
  answers one array of \`{id, modified_date}\`; \`full=true\` gives fully nested items.
- POST on a list takes the same parameters in the query or as a JSON object body (body values win).
  Unknown parameters are ignored; a known one given twice or malformed is a 400 naming it.
- \`search\` matches whole words (case- and accent-insensitive); \`taxonomy_term_id\` also matches the terms
  below it; \`top_only=true\` lists the terms without a parent.
- Errors are \`application/problem+json\` (RFC 9457). While the database is unreachable, requests that need it
  answer 503 with \`Retry-After\`.
- Buffered 200s carry a strong \`ETag\` and \`Cache-Control\`; \`If-None-Match\` is answered with 304.
  Every response carries \`X-Request-Id\`.`;

/** Everything in the document but what depends on the base URL; generated once, on first use. */
let described: ReturnType<typeof describeApi> | undefined;

function describeApi() {
  return {
    tags,
    paths: { ...directoryPaths(), ...healthPaths(), ...documentationPaths() },
    components: {
      schemas: componentSchemas(),
      parameters: parameterComponents(),
      responses: responseComponents,
      headers: headerComponents,
    },
  };
}

/** The OpenAPI 3.1 description of everything this server answers, for clients reaching it at `baseUrl`. */
export function openApiDocument(baseUrl: string) {
  described ??= describeApi();
  return {
    openapi: '3.1.0',
    info: { title: 'HSDS 3.0 API', version: HSDS_VERSION, description: description(baseUrl) },
    servers: [{ url: baseUrl }],
    ...described,
  };
}
