import type * as z from 'zod';
import { PageHeader } from '../hsds/page.ts';

type Converted = Parameters<NonNullable<z.core.ToJSONSchemaParams['override']>>[0];

/** The list header's counts, which src/hsds states no bounds for: none is negative, and pages count from 1. */
const pageHeaderMinimums = new Map<z.core.$ZodType, number>([
  [PageHeader.shape.total_items.unwrap(), 0],
  [PageHeader.shape.total_pages.unwrap(), 0],
  [PageHeader.shape.page_number.unwrap(), 1],
  [PageHeader.shape.size.unwrap(), 0],
]);

/**
 * A `z.toJSONSchema` override. zod bounds every `z.int()` by the safe-integer range, which tells a client
 * nothing it can use and reads as if negative counts were allowed (`minimum: -9007199254740991`), so those
 * bounds are dropped; the list header's counts get the lower bounds they have.
 */
export function integerBounds({ zodSchema, jsonSchema }: Converted): void {
  if (jsonSchema.type !== 'integer') return;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  const minimum = pageHeaderMinimums.get(zodSchema);
  if (minimum !== undefined) jsonSchema.minimum = minimum;
}
