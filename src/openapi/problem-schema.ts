import * as z from 'zod';
import { MAX_FAULTS_LISTED } from '../http/problem.ts';

/** The RFC 9457 problem details body every error answers with (built by http/error-handler.ts). */
export const Problem = z
  .object({
    type: z.string().describe("Always 'about:blank': the status code says what kind of problem it is."),
    title: z.string().describe('The HTTP status text, e.g. Bad Request.'),
    status: z.int().min(400).max(599).describe('The HTTP status code.'),
    detail: z.string().describe('What went wrong, for a person to read.'),
    instance: z.string().describe('The path of the request.'),
    errors: z
      .array(
        z.object({
          parameter: z.string().describe('The query or path parameter at fault.').optional(),
          field: z.string().describe('The body field at fault, as a JSON path.').optional(),
          message: z.string().describe('What is wrong with it.'),
        }),
      )
      .max(MAX_FAULTS_LISTED)
      .optional()
      .describe(
        `For invalid input: each parameter or body field at fault, the first ${MAX_FAULTS_LISTED} (\`detail\` says how many more).`,
      ),
    deleted_at: z.iso
      .datetime()
      .optional()
      .describe('For 410 Gone: when the record was deleted (ISO 8601, UTC).'),
    oldest_cursor: z
      .string()
      .optional()
      .describe(
        'For 410 Gone of the change feed: the oldest cursor it still answers. Only for information: a ' +
          'client whose cursor was refused reads the feed again from its start.',
      ),
  })
  .describe('Problem details (RFC 9457).');

/**
 * The problem the HTTP server answers itself, for a request it could not read whole (too large headers,
 * not HTTP, not received in time, see http/server.ts): the API never saw it, so no instance and no errors.
 */
export const RejectedRequestProblem = Problem.omit({ instance: true, errors: true }).describe(
  'Problem details (RFC 9457) for a request the HTTP server rejected before the API read it.',
);
