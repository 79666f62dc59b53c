/** A JSON object: an HSDS record, a nested document, a row, a parsed body. */
export type Json = Record<string, unknown>;

/** Whether a value is a JSON object: not null, not an array. */
export const isJsonObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A JSON object's text with one more field at its end, its value given as JSON text. */
export const withField = (objectJson: string, name: string, valueJson: string): string =>
  `${objectJson.slice(0, -1)}${objectJson.length > 2 ? ',' : ''}${JSON.stringify(name)}:${valueJson}}`;
