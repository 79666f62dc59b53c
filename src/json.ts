/** A JSON object: an HSDS record, a nested document, a row, a parsed body. */
export type Json = Record<string, unknown>;

/** Whether a value is a JSON object: not null, not an array. */
export const isJsonObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
