import { endpoints } from '../directory/endpoints.ts';
import { RootInfo } from '../hsds/index.ts';
import { schemaRef } from './components.ts';
import { endpointSchemas } from './endpoint-schemas.ts';
import { listOperations } from './list-operations.ts';
import { recordOperation } from './record-operation.ts';
import { cachingHeaders, responseRef } from './responses.ts';

/** The paths of the core read protocol: the root info, and each endpoint's list and single records. */
export function directoryPaths() {
  const paths: Record<string, object> = {
    '/': {
      get: {
        tags: ['root'],
        operationId: 'getAPIMetaInformation',
        summary: 'Specification version, profile and OpenAPI document of this API',
        responses: {
          '200': {
            description: 'Root info.',
            headers: cachingHeaders,
            content: { 'application/json': { schema: schemaRef(RootInfo) } },
          },
          '304': responseRef('NotModified'),
          '400': responseRef('BadHost'),
        },
      },
    },
  };
  for (const endpoint of endpoints) {
    const schemas = endpointSchemas[endpoint.entity];
    paths[endpoint.path] = listOperations(endpoint, schemas);
    paths[`${endpoint.path}/{id}`] = { get: recordOperation(endpoint, schemas) };
  }
  return paths;
}
