import { NO_ACCESS } from '../auth/access-control.ts';
import { schemaRef } from './components.ts';
import { ProtocolProblem } from './protocol-problem-schema.ts';
import { Problem, RejectedRequestProblem } from './problem-schema.ts';
import { headerRef } from './responses.ts';
import { MAX_QUEUED_IMPORTS } from '../ingest/http-import.ts';

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: schemaRef(ProtocolProblem) } },
});

/** `components.responses`: the errors of the management and meta protocols and of bulk loading. */
export const protocolResponseComponents = {
  ProtocolBadRequest: problem('A parameter or the body is invalid; `errors` names each one at fault.'),
  NoAccess: problem(
    `No access (spec part 7): the same answer whether the login, the code or the grant was wrong: "${NO_ACCESS}"`,
  ),
  ProtocolNotFound: problem('No record has this id.'),
  Conflict: problem('The id or login is already taken; `errors` names the field.'),
  ProtocolPayloadTooLarge: problem('The body is larger than the limit (HSDS_BODY_LIMIT_BYTES).'),
  UnsupportedMediaType: problem(
    'The body is not application/json, is labelled with a charset other than UTF-8, or is compressed ' +
      'otherwise than with gzip, deflate or br.',
  ),
  ImportTooLarge: problem('The body is larger than the import limit (HSDS_IMPORT_BODY_LIMIT_BYTES).'),
  ImportTimeout: {
    description:
      'The body did not arrive whole within HSDS_REQUEST_TIMEOUT_MS (default 300 s, counted from the ' +
      'request’s start): nothing is imported. Answered by the HTTP server itself, before the request reached the API.',
    content: { 'application/problem+json': { schema: schemaRef(RejectedRequestProblem) } },
  },
  ImportUnsupportedMediaType: problem('The body is neither JSON nor NDJSON, is compressed, or is not UTF-8.'),
  ImportUnavailable: {
    description:
      `Too many imports are waiting (${MAX_QUEUED_IMPORTS} accepted and not finished), with \`code\` and \`message\`; or the ` +
      'database is unreachable, did not answer within HSDS_DB_TIMEOUT_MS, is out of disk space, or is ' +
      'still being prepared at start-up; or an NDJSON body cannot be stored ' +
      '(the data directory is not writable or full); or, with wait=true, the import lost its lease on the ' +
      'database part-way (what it wrote is kept; sending the data again finishes it). Retry after ' +
      'Retry-After seconds.',
    headers: { 'Retry-After': headerRef('Retry-After') },
    content: {
      'application/problem+json': { schema: { anyOf: [schemaRef(ProtocolProblem), schemaRef(Problem)] } },
    },
  },
  TooManyAttempts: {
    ...problem('Too many failed authentications from this client address; retry after Retry-After seconds.'),
    headers: { 'Retry-After': headerRef('Retry-After') },
  },
  ProtocolError: problem('An unexpected error (spec part 7: Error Response); no internals are told.'),
};

export const protocolResponseRef = (name: keyof typeof protocolResponseComponents) => ({
  $ref: `#/components/responses/${name}`,
});

/** What a JSON write can answer besides its own errors: its body refused for its size or type. */
export const bodyRefused = {
  '413': protocolResponseRef('ProtocolPayloadTooLarge'),
  '415': protocolResponseRef('UnsupportedMediaType'),
};
