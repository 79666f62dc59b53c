/** A field of a Frictionless Table Schema: a CSV column, its type and how that type is written. */
export interface TableField {
  name: string;
  type?: string;
  trueValues?: string[];
  falseValues?: string[];
}

export type CellValue = { value: unknown } | { error: string };

// Table Schema's defaults. HSDS leaves the formats at their default, so date, time and datetime are
// checked for that shape here and kept as text: HSDS JSON writes them as strings, and the record schema
// then applies its own stricter rules (a datetime needs a UTC offset there).
const DEFAULT_TRUE = ['true', 'True', 'TRUE', '1'];
const DEFAULT_FALSE = ['false', 'False', 'FALSE', '0'];
const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const YEAR = /^\d{4}$/;

const matching = (pattern: RegExp, kind: string) => (text: string) =>
  pattern.test(text) ? { value: text } : { error: `not ${kind}` };

/** Types read as JSON (`object`, `array`, `geojson`) must give the JSON kind the type names. */
const json = (kind: 'object' | 'array') => (text: string) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: `not valid JSON` };
  }
  const isArray = Array.isArray(parsed);
  const fits = parsed !== null && typeof parsed === 'object' && (kind === 'array') === isArray;
  return fits ? { value: parsed } : { error: `not a JSON ${kind}` };
};

const converters: Record<string, (text: string, field: TableField) => CellValue> = {
  integer: (text) => {
    const number = Number(text);
    if (!INTEGER.test(text)) return { error: 'not an integer' };
    return Number.isSafeInteger(number) ? { value: number } : { error: 'too large an integer' };
  },
  // NaN and INF are Table Schema numbers but have no JSON form, so HSDS cannot carry them.
  number: (text) => (NUMBER.test(text) ? { value: Number(text) } : { error: 'not a finite number' }),
  year: (text) => (YEAR.test(text) ? { value: Number(text) } : { error: 'not a year' }),
  boolean: (text, field) => {
    if ((field.trueValues ?? DEFAULT_TRUE).includes(text)) return { value: true };
    if ((field.falseValues ?? DEFAULT_FALSE).includes(text)) return { value: false };
    return { error: 'not a boolean' };
  },
  date: matching(DATE, 'a date (YYYY-MM-DD)'),
  time: matching(TIME, 'a time (HH:MM:SS)'),
  datetime: matching(DATETIME, 'a datetime (YYYY-MM-DDTHH:MM:SSZ)'),
  object: json('object'),
  geojson: json('object'),
  array: json('array'),
};

/**
 * Converts one non-missing CSV cell to the JSON value its column's type stands for. Text types (string,
 * and those HSDS keeps as text: yearmonth, duration, geopoint, any) and columns the schema does not
 * declare stay text. Non-text cells are read without surrounding spaces, which spreadsheets often add.
 */
export function convertCell(text: string, field: TableField | undefined): CellValue {
  const convert = field?.type === undefined ? undefined : converters[field.type];
  if (!convert || !field) return { value: text };
  return convert(text.trim(), field);
}
