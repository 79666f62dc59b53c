import * as z from 'zod';
import { inputJsonSchema } from './input-schema.ts';

/**
 * A query parameter of the management and meta protocols or of bulk loading, whose schema parses the
 * text of a query string. Its default, given as `defaultText` or by the schema, is written as the text a
 * query would carry, the type the documented schema has.
 */
export function queryParameter(name: string, schema: z.ZodType, description: string, defaultText?: string) {
  const applied = schema instanceof z.ZodDefault ? String(schema.def.defaultValue) : defaultText;
  return {
    name,
    in: 'query',
    required: false,
    description,
    schema: { ...inputJsonSchema(schema), ...(applied === undefined ? {} : { default: applied }) },
  };
}
