/**
 * Renders values the way MongoDB's C++ server prints them in error messages, so the stand-in's errmsg
 * strings read like the server's: BSON toString for values, typeName() for types, ostream for doubles.
 */

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

const bsonTypeOf = (value: object): string | undefined => (value as { _bsontype?: string })._bsontype;

/** A JS number arrives as BSON int32 when the driver could encode it so, otherwise as a double. */
const isInt32 = (value: number): boolean =>
  Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;

/** The numeric value of a BSON number (double, int, long, decimal), or undefined for anything else. */
export function numericValue(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'object' && value !== null) {
    const type = bsonTypeOf(value);
    if (type === 'Double' || type === 'Int32' || type === 'Long' || type === 'Decimal128') {
      return Number(String(value));
    }
  }
  return undefined;
}

/**
 * An embedded document: an object literal (or one with no prototype), as BSON decoding and JSON.parse
 * make them. Arrays, Dates, RegExps, BSON value classes (ObjectId, Long, Binary, ...) and other class
 * instances are not.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** True for BSON arrays and embedded documents: MongoDB's isABSONObj(). */
export const isDocumentOrArray = (value: unknown): value is Record<string, unknown> | unknown[] =>
  Array.isArray(value) || isPlainObject(value);

const BSON_TYPE_NAMES: Record<string, string> = {
  ObjectId: 'objectId',
  Long: 'long',
  Int32: 'int',
  Double: 'double',
  Decimal128: 'decimal',
  Binary: 'binData',
  Timestamp: 'timestamp',
  BSONRegExp: 'regex',
  Code: 'javascript',
  MinKey: 'minKey',
  MaxKey: 'maxKey',
};

/** MongoDB's typeName(); a missing field (undefined) is "missing". */
export function typeName(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (typeof value === 'number') return isInt32(value) ? 'int' : 'double';
  if (typeof value === 'bigint') return 'long';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (value instanceof RegExp) return 'regex';
  const bsonType = typeof value === 'object' ? bsonTypeOf(value) : undefined;
  return bsonType === undefined ? 'object' : (BSON_TYPE_NAMES[bsonType] ?? bsonType);
}

/** A double as BSON toString prints it: 16 significant digits, and a trailing ".0" when integral. */
function formatBsonDouble(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'nan.0' : value > 0 ? 'inf.0' : '-inf.0';
  const text = String(Number(value.toPrecision(16)));
  return Number.isInteger(value) && !text.includes('e') ? `${text}.0` : text;
}

/** A value as BSONElement::toString(false) prints it, e.g. `{ type: "Point", coordinates: [ 1, 2 ] }`. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  if (typeof value === 'number') return isInt32(value) ? String(value) : formatBsonDouble(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[ ${value.map(formatValue).join(', ')} ]`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (value instanceof RegExp) return String(value);
  if (typeof value !== 'object') return String(value);
  const bsonType = bsonTypeOf(value);
  if (bsonType === 'ObjectId') return `ObjectId('${String(value)}')`;
  if (bsonType !== undefined) return String(value);
  const entries = Object.entries(value).filter(([, field]) => field !== undefined);
  return entries.length === 0
    ? '{}'
    : `{ ${entries.map(([key, field]) => formatField(key, field)).join(', ')} }`;
}

/** An element with its name, as `<< BSONElement` prints it: `loc: "x"`. */
export const formatField = (name: string, value: unknown): string => `${name}: ${formatValue(value)}`;

/** A double as a C++ ostream prints it by default (6 significant digits, %g style), e.g. -122.419. */
export function formatStreamDouble(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  if (value === 0) return '0';
  const [mantissa = '', exponentText = '0'] = value.toExponential(5).split('e');
  const exponent = Number(exponentText);
  const trimZeros = (digits: string) => (digits.includes('.') ? digits.replace(/\.?0+$/, '') : digits);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? '-' : '+';
    return `${trimZeros(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return trimZeros(value.toFixed(5 - exponent));
}
