import { STATUS_CODES } from 'node:http';

/** One thing wrong with the request, named so the caller can fix it. */
export interface ProblemDetail {
  /** The query or path parameter at fault. */
  parameter?: string;
  /** The body field at fault, as a JSON path. */
  field?: string;
  message: string;
}

/**
 * An error that becomes an RFC 9457 problem details response. Thrown anywhere in request handling;
 * the error handler renders it.
 */
export class HttpProblem extends Error {
  readonly status: number;
  readonly errors: ProblemDetail[] | undefined;
  readonly headers: Record<string, string>;
  /** Extra members of the problem document (RFC 9457 extension members). */
  readonly extensions: Record<string, unknown>;

  constructor(
    status: number,
    detail: string,
    options: {
      errors?: ProblemDetail[];
      headers?: Record<string, string>;
      extensions?: Record<string, unknown>;
    } = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
    this.status = status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }

  get title(): string {
    return STATUS_CODES[this.status] ?? 'Error';
  }
}

/** The RFC 9457 problem details document of a problem; `instance` is the request's path, when one was read. */
export const problemDocument = (problem: HttpProblem, instance?: string) => ({
  type: 'about:blank',
  title: problem.title,
  status: problem.status,
  detail: problem.message,
  ...(instance === undefined ? {} : { instance }),
  ...(problem.errors ? { errors: problem.errors } : {}),
  ...problem.extensions,
});

/**
 * At most this many faults are listed in a 400's `errors` and `detail`: a request naming thousands of
 * unknown parameters or fields gets the first ones and how many more there are, not an answer many times
 * its own size (each listing what the endpoint takes).
 */
export const MAX_FAULTS_LISTED = 10;

/** What is wrong with one query parameter or body field (never its value: it may be a secret). */
export type Fault<Place extends 'parameter' | 'field'> = Record<Place, string> & { message: string };

/** The 400 for a request's faults, each named by its parameter or body field: `<heading>: '<name>' <message>; …`. */
export function invalidRequest<Place extends 'parameter' | 'field'>(
  heading: string,
  place: Place,
  faults: Fault<Place>[],
): HttpProblem {
  const listed = faults.slice(0, MAX_FAULTS_LISTED);
  const more = faults.length - listed.length;
  const detail = listed.map((fault) => `'${fault[place]}' ${fault.message}`).join('; ');
  return new HttpProblem(400, `${heading}: ${detail}${more > 0 ? `; and ${more} more` : ''}.`, {
    errors: listed,
  });
}

export const invalidParameter = (parameter: string, message: string) =>
  new HttpProblem(400, `Invalid value for parameter '${parameter}': ${message}`, {
    errors: [{ parameter, message }],
  });

export const notFound = (detail: string) => new HttpProblem(404, detail);
