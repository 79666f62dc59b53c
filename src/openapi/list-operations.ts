import type { Endpoint } from '../directory/endpoints.ts';
import type { ParameterName } from '../directory/list-params.ts';
import { schemaRef, type JsonSchema } from './components.ts';
import { endpointNames } from './endpoint-names.ts';
import { MinimalService, type EndpointSchemas } from './endpoint-schemas.ts';
import { listRequestBody, parameterRef } from './parameters.ts';
import { cachingHeaders, responseRef } from './responses.ts';

const anyOf = (schemas: JsonSchema[]): JsonSchema =>
  schemas.length === 1 ? schemas[0]! : { anyOf: schemas };

/**
 * GET and POST of a core list: the parameters the endpoint takes (in the query, and for POST also as a
 * JSON body), and each shape the answer takes with them: a page, a page of full records (`full`), the
 * `minimal` array, an NDJSON stream (`format`).
 */
export function listOperations(endpoint: Endpoint, schemas: EndpointSchemas) {
  const names = endpointNames(endpoint);
  const takes = (name: ParameterName) => endpoint.parameters.includes(name);
  const fullPage = takes('full') ? schemas.fullPage : undefined;
  if (takes('full') && !fullPage) throw new Error(`${endpoint.path} takes full but has no full page schema.`);

  const pages = [schemaRef(schemas.page)];
  const items = [schemaRef(schemas.item)];
  const shapes = ['A page of list items (one-to-one fields)'];
  if (fullPage) {
    pages.push(schemaRef(fullPage));
    items.push(schemaRef(schemas.record));
    shapes.push('with full=true, a page of fully nested records');
  }
  if (takes('minimal')) {
    pages.push({ type: 'array', items: schemaRef(MinimalService) });
    items.push(schemaRef(MinimalService));
    shapes.push(
      'with minimal=true, an array of {id, modified_date} for every match, streamed (with format=ndjson, one a line)',
    );
  }
  if (takes('format')) shapes.push('with format=ndjson, every match as NDJSON, one item a line, streamed');

  const ok = {
    description: `${shapes.join('; ')}.`,
    headers: cachingHeaders,
    content: {
      'application/json': { schema: anyOf(pages) },
      ...(takes('format') ? { 'application/x-ndjson': { schema: anyOf(items) } } : {}),
    },
  };
  const operation = (method: 'get' | 'post') => ({
    tags: [names.tag],
    operationId: method === 'get' ? names.listId : `list${names.manyId}ByPost`,
    summary:
      method === 'get'
        ? `List ${names.many}`
        : `List ${names.many}, with the parameters in a JSON body or the query`,
    parameters: endpoint.parameters.map(parameterRef),
    ...(method === 'post' ? { requestBody: listRequestBody(endpoint.parameters) } : {}),
    responses: {
      '200': ok,
      // The ETag middleware answers If-None-Match on GET only.
      ...(method === 'get'
        ? { '304': responseRef('NotModified') }
        : { '413': responseRef('PayloadTooLarge'), '415': responseRef('NotJson') }),
      '400': responseRef('BadRequest'),
      '503': responseRef('Unavailable'),
    },
  });
  return { get: operation('get'), post: operation('post') };
}
