import type * as z from 'zod';
import { schemaRef } from './components.ts';
import { protocolResponseRef } from './protocol-responses.ts';
import { responseRef } from './responses.ts';
import { credentialsRequired } from './security.ts';

/** An operation of the management or meta protocol, or of bulk loading, before what they all share. */
interface ProtocolOperation {
  tags: string[];
  operationId: string;
  summary: string;
  description?: string;
  parameters?: object[];
  requestBody?: object;
  responses: Record<string, object>;
  /** Who may call: by default, callers with credentials and a grant of the path and verb. */
  security?: object[];
}

/**
 * The operation with what every protected call answers: refused (403) or slowed down (429) by access
 * control, failed unexpectedly (500, spec part 7), or with the database unreachable (503); its successes
 * are never cached (no-store).
 */
export const protocolOperation = ({
  security = credentialsRequired,
  responses,
  ...operation
}: ProtocolOperation) => ({
  ...operation,
  security,
  responses: {
    '403': protocolResponseRef('NoAccess'),
    '429': protocolResponseRef('TooManyAttempts'),
    '500': protocolResponseRef('ProtocolError'),
    '503': responseRef('Unavailable'),
    // An operation with more to say about one of those (POST /import's 503) says it.
    ...Object.fromEntries(
      Object.entries(responses).map(([status, response]) => [
        status,
        status.startsWith('2') ? withHeaders(response, noStore) : response,
      ]),
    ),
  },
});

const withHeaders = (response: object, headers: object) => ({
  ...response,
  headers: { ...(response as { headers?: object }).headers, ...headers },
});

/** The protected protocols' answers are never cached (src/http/no-store.ts). */
const noStore = {
  'Cache-Control': {
    description:
      "Always no-store: users, grants, codes, the audit trail and import reports are nobody's to cache.",
    schema: { type: 'string', const: 'no-store' },
  },
};

/** A JSON answer of one of the named schemas. */
export const jsonResponse = (description: string, schema: z.ZodType, headers?: object) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: schemaRef(schema) } },
});

/** A required JSON request body of one of the named schemas. */
export const jsonRequestBody = (schema: z.ZodType) => ({
  required: true,
  content: { 'application/json': { schema: schemaRef(schema) } },
});

/** Every management and meta path answers with or without the trailing slash the spec writes. */
export const TRAILING_SLASH_NOTE = 'The path answers without its trailing slash too.';
