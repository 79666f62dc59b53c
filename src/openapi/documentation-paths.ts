import { cachingHeaders, responseRef } from './responses.ts';

const tags = ['documentation'];

const ok = (description: string, mediaType: string) => ({
  description,
  content: { [mediaType]: { schema: { type: 'string' } } },
});

/** The document and the profile are tagged and cached as the directory's answers are. */
const cached = (response: { description: string; headers?: object; content: object }) => ({
  '200': { ...response, headers: { ...cachingHeaders, ...response.headers } },
  '304': responseRef('NotModified'),
});

/** The paths that describe the API: this document, the profile and the interactive reference. */
export function documentationPaths() {
  return {
    '/openapi.json': {
      get: {
        tags,
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI 3.1 document',
        responses: {
          ...cached({
            description: 'The OpenAPI 3.1 document, generated from the schemas the server validates with.',
            content: { 'application/json': { schema: { type: 'object' } } },
          }),
          '400': responseRef('BadHost'),
        },
      },
    },
    '/profile': {
      get: {
        tags,
        operationId: 'getProfile',
        summary: 'The HSDS profile of this server: its decisions where the specification leaves a choice',
        responses: cached({
          description:
            "The profile, in Markdown; as an HTML page when Accept prefers text/html, as a browser's " +
            'does (without Accept, or with */*, Markdown).',
          headers: { Vary: { description: 'Accept: the form depends on it.', schema: { type: 'string' } } },
          content: {
            'text/markdown': { schema: { type: 'string' } },
            'text/html': { schema: { type: 'string' } },
          },
        }),
      },
    },
    '/docs': {
      get: {
        tags,
        operationId: 'getApiReference',
        summary: 'Interactive API reference (Swagger UI), working offline',
        responses: { '200': ok('The reference page.', 'text/html') },
      },
    },
    '/docs/{file}': {
      get: {
        tags,
        operationId: 'getApiReferenceAsset',
        summary: 'A script, style sheet or icon of the API reference page',
        parameters: [
          {
            name: 'file',
            in: 'path',
            required: true,
            description: 'File name, as the reference page links it.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: 'The file; cached for a year (its URL changes with its version).',
            content: { '*/*': {} },
          },
          '404': responseRef('NotFound'),
        },
      },
    },
  };
}
