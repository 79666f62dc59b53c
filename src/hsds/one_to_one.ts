import * as z from 'zod';

type Unwrapped<Field> = Field extends z.ZodOptional<infer Inner> ? Unwrapped<Inner> : Field;

/** Keys of a shape whose values are single values, not nested objects or arrays. */
export type OneToOneKey<Shape extends z.ZodRawShape> = {
  [Key in keyof Shape]: Unwrapped<Shape[Key]> extends z.ZodObject | z.ZodArray ? never : Key;
}[keyof Shape] &
  keyof Shape &
  string;

const unwrapped = (field: z.ZodType): z.ZodType =>
  field instanceof z.ZodOptional ? unwrapped(field.unwrap() as z.ZodType) : field;

const isNested = (field: z.ZodType): boolean => {
  const inner = unwrapped(field);
  return inner instanceof z.ZodObject || inner instanceof z.ZodArray;
};

/**
 * The one-to-one (direct, single-valued) field names of an object schema: what spec part 4.4 list items
 * carry, and what a MongoDB `$project` must keep to build them.
 */
export function oneToOneFields<Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(
  schema: z.ZodObject<Shape, Config>,
): OneToOneKey<Shape>[] {
  return Object.keys(schema.shape).filter(
    (key) => !isNested(schema.shape[key] as z.ZodType),
  ) as OneToOneKey<Shape>[];
}

/** The object schema cut down to its one-to-one fields; like every HSDS object, it keeps extension fields. */
export function oneToOne<Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(
  schema: z.ZodObject<Shape, Config>,
) {
  const mask = Object.fromEntries(oneToOneFields(schema).map((key) => [key, true as const]));
  // pick cannot type a computed mask; the mask holds exactly the OneToOneKey keys.
  const anyShape: z.ZodObject<z.ZodRawShape, Config> = schema;
  return anyShape.pick(mask) as z.ZodObject<Pick<Shape, OneToOneKey<Shape>>, Config>;
}

/** A MongoDB inclusion projection: `true` for a kept field, a nested projection for a nested object. */
export type Projection = { [field: string]: true | Projection };

const objectWithin = (field: z.ZodType): z.ZodObject | undefined => {
  const inner = unwrapped(field);
  if (inner instanceof z.ZodArray) return objectWithin(inner.element as z.ZodType);
  return inner instanceof z.ZodObject ? inner : undefined;
};

/**
 * The inclusion projection that keeps exactly the fields an object schema declares, descending into
 * nested objects and arrays of objects. Extension fields are not declared, so it drops them.
 */
export function projectionOf(schema: z.ZodObject): Projection {
  return Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => {
      const nested = objectWithin(field as z.ZodType);
      return [key, nested ? projectionOf(nested) : true];
    }),
  );
}
