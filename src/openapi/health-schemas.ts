import * as z from 'zod';

/** The body of GET /healthz (http/health.ts). */
export const Liveness = z.object({ status: z.literal('ok') }).describe('The process is up.');

/** The body of GET /readyz (http/health.ts). */
export const Readiness = z
  .object({
    status: z.enum(['ok', 'unavailable']).describe('Whether the server can answer requests that need data.'),
    database: z
      .enum(['up', 'not writable', 'down'])
      .describe(
        'Whether the database answered a ping (`down` if not); after it refused a write for lack of disk ' +
          'space, whether it takes a small write again (`not writable` while it does not).',
      ),
    prepared: z
      .boolean()
      .describe(
        'Whether the database is prepared: its indexes, and with HSDS_SEED the sample directory, are in place ' +
          '(done in the background after the server starts listening).',
      ),
  })
  .describe('Whether the server is ready to serve data.');
