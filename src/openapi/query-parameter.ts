import * as z from 'zod';
import { inputJsonSchema } from './input-schema.ts';

/**
 * A query parameter of the management and meta protocols or of bulk loading, whose schema parses the
 * text of a query string. Its default, the schema's, is written in the type the documented schema has: a
 * number for an integer, a boolean for a flag, else the text a query would carry.
 */
export function queryParameter(name: string, schema: z.ZodType, description: string) {
  const json = inputJsonSchema(schema);
  const applied = schema instanceof z.ZodDefault ? (schema.def.defaultValue as unknown) : undefined;
  const typed =
    applied === undefined || json.type === 'boolean'
      ? applied
      : json.type === 'integer'
        ? Number(applied)
        : String(applied);
  return {
    name,
    in: 'query',
    required: false,
    description,
    schema: { ...json, ...(typed === undefined ? {} : { default: typed }) },
  };
}
