import type { z } from 'zod';
import { HttpProblem, type ProblemDetail } from '../http/problem.ts';

/**
 * A request body checked against `schema`, or a 400 naming each field at fault. Messages come from the
 * schemas and never quote a value (a body may carry a code).
 */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors: ProblemDetail[] = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: key, message: 'is not a known field' }))
      : [{ field: issue.path.length > 0 ? issue.path.join('.') : '$', message: issue.message }],
  );
  const detail = errors.map((error) => `'${error.field}' ${error.message}`).join('; ');
  throw new HttpProblem(400, `Invalid request body: ${detail}.`, { errors });
}
