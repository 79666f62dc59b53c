import { HSDS_VERSION } from '../directory/root.ts';

const problem = {
  description: 'Problem details (RFC 9457).',
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
};

/** The OpenAPI 3.1 description of everything this server answers. */
export function openApiDocument(baseUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'HSDS 3.0 API',
      version: HSDS_VERSION,
      description:
        'Open Referral Human Services Data Specification 3.0 API. Profile and implementation decisions: /profile.',
    },
    servers: [{ url: baseUrl }],
    paths: {
      '/': {
        get: {
          summary: 'Root info: specification version, profile and OpenAPI URLs',
          responses: {
            '200': {
              description: 'Root info',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/RootInfo' } } },
            },
          },
        },
      },
      '/healthz': {
        get: { summary: 'Liveness', responses: { '200': { description: 'The process is up' } } },
      },
      '/readyz': {
        get: {
          summary: 'Readiness: the database answers',
          responses: {
            '200': { description: 'Ready' },
            '503': { description: 'The database is unreachable' },
          },
        },
      },
      '/metrics': {
        get: {
          summary: 'Prometheus metrics',
          responses: { '200': { description: 'Prometheus text format' } },
        },
      },
    },
    components: {
      schemas: {
        RootInfo: {
          type: 'object',
          required: ['version', 'profile', 'openapi_url'],
          properties: {
            version: { type: 'string' },
            profile: { type: 'string', format: 'uri' },
            openapi_url: { type: 'string', format: 'uri' },
          },
        },
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            instance: { type: 'string' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['message'],
                properties: {
                  parameter: { type: 'string' },
                  field: { type: 'string' },
                  message: { type: 'string' },
                },
              },
            },
          },
        },
      },
      responses: { Problem: problem },
    },
  };
}
