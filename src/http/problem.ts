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

export const invalidParameter = (parameter: string, message: string) =>
  new HttpProblem(400, `Invalid value for parameter '${parameter}': ${message}`, {
    errors: [{ parameter, message }],
  });

export const notFound = (detail: string) => new HttpProblem(404, detail);
