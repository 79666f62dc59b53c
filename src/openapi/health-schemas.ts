import * as z from 'zod';

/** The body of GET /healthz (http/health.ts). */
export const Liveness = z.object({ status: z.literal('ok') }).describe('The process is up.');

/** The body of GET /readyz (http/health.ts). */
export const Readiness = z
  .object({
    status: z.enum(['ok', 'unavailable']).describe('Whether the server can answer requests that need data.'),
    database: z.enum(['up', 'down']).describe('Whether the database answered a ping.'),
  })
  .describe('Whether the server is ready to serve data.');
