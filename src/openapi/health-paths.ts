import { schemaRef } from './components.ts';
import { Liveness, Readiness } from './health-schemas.ts';
import { headerRef } from './responses.ts';

const tags = ['operations'];

/** The paths of http/health.ts: liveness, readiness and metrics, for orchestrators and monitoring. */
export function healthPaths() {
  return {
    '/healthz': {
      get: {
        tags,
        operationId: 'getLiveness',
        summary: 'Liveness: the process is up',
        responses: {
          '200': {
            description: 'The process is up.',
            content: { 'application/json': { schema: schemaRef(Liveness) } },
          },
        },
      },
    },
    '/readyz': {
      get: {
        tags,
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers, takes writes and is prepared',
        responses: {
          '200': {
            description: 'The database answered and is prepared.',
            content: { 'application/json': { schema: schemaRef(Readiness) } },
          },
          '503': {
            description:
              'The database did not answer (the server reconnects by itself), is out of disk space (it ' +
              'refused a write, and still refuses a small one), or is still being prepared.',
            headers: { 'Retry-After': headerRef('Retry-After') },
            content: { 'application/json': { schema: schemaRef(Readiness) } },
          },
        },
      },
    },
    '/metrics': {
      get: {
        tags,
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        responses: {
          '200': {
            description: 'Request counts and latencies by route template, and process metrics.',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      },
    },
  };
}
