import { dereferenced } from './references.ts';

/**
 * Where, in the document, the schema of an operation's response is: followed through a shared response
 * (`#/components/responses/…`), since a JSON pointer cannot pass through a `$ref`.
 */
export function responseSchemaPath(
  document: { paths: object },
  path: string,
  method: string,
  status: number,
  mediaType: string,
): string[] {
  const operation = (
    document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>
  )[path]![method]!;
  const response = operation.responses[String(status)];
  if (response === undefined) throw new Error(`${method} ${path} documents no ${status}.`);
  const ref = (response as { $ref?: string }).$ref;
  const at =
    ref === undefined ? ['paths', path, method, 'responses', String(status)] : ref.slice(2).split('/');
  const content = dereferenced<{ content?: Record<string, unknown> }>(document, response).content ?? {};
  if (!(mediaType in content)) throw new Error(`${method} ${path} ${status} documents no ${mediaType}.`);
  return [...at, 'content', mediaType, 'schema'];
}
