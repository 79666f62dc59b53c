import * as z from 'zod';
import type { JsonSchema } from './components.ts';
import { integerBounds } from './integer-bounds.ts';

/**
 * What a schema accepts, as JSON Schema: its input form (before defaults and parsing), which is what a
 * client sends. The description is left out: it belongs to the parameter or property that uses it.
 */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  const {
    $schema: _dialect,
    description: _description,
    ...json
  } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    override: integerBounds,
  });
  return json;
}
