import * as z from 'zod';
import { parameters, type ParameterName } from '../directory/list-params.ts';
import type { JsonSchema } from './components.ts';
import { inputJsonSchema } from './input-schema.ts';

const parameterNames = Object.keys(parameters) as ParameterName[];

/**
 * The formats of parameters whose zod schema, a string it parses itself, cannot state one. A date-time is
 * what generated clients send for `modified_after`; its description says a plain date is accepted too.
 */
const formats: Partial<Record<ParameterName, string>> = { modified_after: 'date-time', open_at: 'date-time' };

/**
 * What a list parameter accepts. Query strings carry the same values as text, which OpenAPI's query
 * serialization already implies. zod leaves the default out of the input form when a preprocessing step
 * precedes it, but ours are all valid inputs too.
 */
function parameterSchema(name: ParameterName): JsonSchema {
  const schema = parameters[name];
  const format = formats[name];
  const json = { ...inputJsonSchema(schema), ...(format === undefined ? {} : { format }) };
  return schema instanceof z.ZodDefault ? { ...json, default: schema.def.defaultValue } : json;
}

/** `components.parameters`: every list parameter, as the query parameter each list operation refers to. */
export function parameterComponents(): Record<string, JsonSchema> {
  return Object.fromEntries(
    parameterNames.map((name) => [
      name,
      {
        name,
        in: 'query',
        required: false,
        description: parameters[name].description,
        schema: parameterSchema(name),
      },
    ]),
  );
}

export const parameterRef = (name: ParameterName) => ({ $ref: `#/components/parameters/${name}` });

/** The body of a POST list: the same parameters as one JSON object. */
export function listRequestBody(names: readonly ParameterName[]) {
  return {
    required: false,
    description:
      'The list parameters as a JSON object; any may instead be given in the query string (body values win). ' +
      'A member that is not a parameter of this list is a 400 naming it (unless HSDS_UNKNOWN_PARAMETERS=ignore).',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: Object.fromEntries(
            names.map((name) => [
              name,
              { description: parameters[name].description, ...parameterSchema(name) },
            ]),
          ),
        },
      },
    },
  };
}

/** The `{id}` of a single-record path, or the path variable `name` of a record of the protocols. */
export const idParameter = (what: string, name = 'id') => ({
  name,
  in: 'path',
  required: true,
  description: `Identifier of the ${what}.`,
  schema: { type: 'string' },
});
