import { BSONSymbol, Code } from 'bson';
import { numericValue } from '../compare.ts';
import { badValue } from '../errors.ts';
import { typeName } from 'geojson-sphere';
import { candidates, fieldOperator, type FieldOperator } from './field-operator.ts';

/**
 * `$type` judged by the stored BSON type (mingo only knows JS types, so it cannot tell an int from a
 * double or a long). Aliases and numeric codes as in MongoDB's BSON types table; `number` is any of
 * int, long, double and decimal.
 */
const TYPE_CODES: Record<string, number> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  dbPointer: 12,
  javascript: 13,
  symbol: 14,
  javascriptWithScope: 15,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};
const NUMBER_CODES = new Set(['double', 'int', 'long', 'decimal'].map((name) => TYPE_CODES[name]!));
const KNOWN_CODES = new Set(Object.values(TYPE_CODES));

/** The BSON type code a value is stored with. */
function typeCode(value: unknown): number {
  if (value instanceof BSONSymbol) return TYPE_CODES.symbol!;
  if (value instanceof Code) return value.scope ? TYPE_CODES.javascriptWithScope! : TYPE_CODES.javascript!;
  return TYPE_CODES[typeName(value)] ?? TYPE_CODES.object!;
}

/** The type codes one `$type` operand element stands for. */
function operandCodes(operand: unknown): number[] {
  if (typeof operand === 'string') {
    if (operand === 'number') return [...NUMBER_CODES];
    const code = TYPE_CODES[operand];
    if (code === undefined) throw badValue(`Unknown type name alias: ${operand}`);
    return [code];
  }
  const code = numericValue(operand);
  if (typeof code === 'number' && Number.isNaN(code))
    throw badValue(`type must be represented as a number or a string`);
  if (!KNOWN_CODES.has(Number(code))) throw badValue(`Invalid numerical type code: ${String(code)}`);
  return [Number(code)];
}

export const $type: FieldOperator = (selector, operand, options) => {
  const wanted = new Set((Array.isArray(operand) ? operand : [operand]).flatMap(operandCodes));
  return fieldOperator(
    (value) =>
      value !== undefined && candidates(value).some((v) => v !== undefined && wanted.has(typeCode(v))),
  )(selector, operand, options);
};
