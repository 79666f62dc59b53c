import * as z from 'zod';
import { Problem } from './problem-schema.ts';

/** The errors of the management and meta protocols and of bulk loading (auth/protocol-errors.ts). */
export const ProtocolProblem = Problem.extend({
  code: z
    .int()
    .min(400)
    .max(599)
    .describe('The HTTP status code, as the original HSDA APIs answered errors.'),
  message: z.string().describe('What went wrong (the same text as `detail`).'),
}).describe('Problem details (RFC 9457) with the `code` and `message` of the HSDA error body.');
