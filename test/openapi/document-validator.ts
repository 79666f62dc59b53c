import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

/** Where the document is registered with ajv; any absolute URI would do. */
const DOCUMENT_URI = 'https://hsds-api.invalid/openapi.json';

/** A JSON pointer to a member of the document, e.g. `['components', 'schemas', 'Service']`. */
export const pointer = (path: string[]) =>
  `#${path.map((part) => `/${part.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`;

/**
 * Validates data against any schema of the document (JSON Schema 2020-12, the OpenAPI 3.1 dialect, with
 * its formats checked), `$ref`s resolved within the document as a client's validator would.
 */
export function documentValidator(document: object) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_URI });
  const compiled = new Map<string, ValidateFunction>();
  return (path: string[], data: unknown) => {
    const at = pointer(path);
    if (!compiled.has(at)) compiled.set(at, ajv.compile({ $ref: `${DOCUMENT_URI}${at}` }));
    const validate = compiled.get(at)!;
    return { valid: validate(data), errors: validate.errors ?? [] };
  };
}
