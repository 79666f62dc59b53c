import type { z } from 'zod';
import { invalidBody } from '../auth/protocol-errors.ts';

/**
 * A request body checked against `schema`, or a 400 naming each field at fault. Messages come from the
 * schemas and never quote a value (a body may carry a code).
 */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw invalidBody(
    parsed.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({ field: key, message: 'is not a known field' }))
        : issue.path.length === 0
          ? [{ field: '$', message: issue.code === 'invalid_type' ? 'must be a JSON object' : issue.message }]
          : [{ field: issue.path.join('.'), message: issue.message }],
    ),
  );
}

/** The id a PUT addresses: its body may repeat the id in the path, but not name another. */
export function sameId(inBody: string | undefined, inPath: string): string {
  if (inBody !== undefined && inBody !== inPath) {
    throw invalidBody([{ field: 'id', message: 'must match the id in the path' }]);
  }
  return inPath;
}
