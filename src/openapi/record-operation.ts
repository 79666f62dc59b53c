import type { Endpoint } from '../directory/endpoints.ts';
import { schemaRef } from './components.ts';
import { endpointNames } from './endpoint-names.ts';
import type { EndpointSchemas } from './endpoint-schemas.ts';
import { idParameter, parameterRef } from './parameters.ts';
import { cachingHeaders, headerRef, responseRef } from './responses.ts';

/** GET of one fully nested record by id. */
export function recordOperation(endpoint: Endpoint, schemas: EndpointSchemas) {
  const names = endpointNames(endpoint);
  return {
    tags: [names.tag],
    operationId: names.recordId,
    summary: `One ${names.one} by id, fully nested`,
    parameters: [idParameter(names.one), ...schemas.recordParameters.map(parameterRef)],
    responses: {
      '200': {
        description: `The ${names.one}.`,
        headers: { ...cachingHeaders, 'Last-Modified': headerRef('Last-Modified') },
        content: { 'application/json': { schema: schemaRef(schemas.record) } },
      },
      '304': responseRef('NotModified'),
      // A parameter this path does not take is a 400 too (HSDS_UNKNOWN_PARAMETERS).
      '400': responseRef('BadRequest'),
      '404': responseRef('NotFound'),
      '410': responseRef('Gone'),
      '503': responseRef('Unavailable'),
    },
  };
}
