import { Decimal128, Double, Int32, Long } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { numericValue } from '../compare.ts';
import { locationError } from '../errors.ts';
import { typeName } from 'geojson-sphere';

/**
 * `$round` and `$trunc` as MongoDB computes them: the number is taken as a decimal (a double with 34
 * significant digits), quantized to 10^-place with ties to even ($round) or toward zero ($trunc), and
 * returned in the input's numeric type. mingo's versions round on binary fractions and get halves wrong.
 */
type Rounding = 'halfEven' | 'towardZero';

const MIN_PLACE = -20;
const MAX_PLACE = 100;

/** sign × coefficient × 10^exponent. */
interface DecimalValue {
  negative: boolean;
  coefficient: bigint;
  exponent: number;
}

/** Parses `-1.2345e+3`, `1234.5`, `1.2E-7` (Number and Decimal128 spellings). */
function parseDecimal(text: string): DecimalValue {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal number: ${text}`);
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  return {
    negative: sign === '-',
    coefficient: BigInt(`${whole}${fraction}` || '0'),
    exponent: Number(exponent) - fraction.length,
  };
}

/** Quantizes to a multiple of 10^-place. */
function quantize(value: DecimalValue, place: number, rounding: Rounding): DecimalValue {
  if (value.exponent >= -place) {
    // Exact already: only the exponent changes (1.2 to 3 places is 1.200), within Decimal128's 34 digits.
    const coefficient = value.coefficient * 10n ** BigInt(value.exponent + place);
    return coefficient.toString().length > 34 ? value : { ...value, coefficient, exponent: -place };
  }
  const divisor = 10n ** BigInt(-place - value.exponent);
  let quotient = value.coefficient / divisor;
  const twiceRemainder = (value.coefficient % divisor) * 2n;
  const roundsUp = twiceRemainder > divisor || (twiceRemainder === divisor && quotient % 2n === 1n);
  if (rounding === 'halfEven' && roundsUp) quotient += 1n;
  return { negative: value.negative, coefficient: quotient, exponent: -place };
}

const decimalText = ({ negative, coefficient, exponent }: DecimalValue): string =>
  `${negative ? '-' : ''}${coefficient}E${exponent}`;

/** The integer a decimal with a non-negative exponent stands for. */
const decimalInteger = ({ negative, coefficient, exponent }: DecimalValue): bigint =>
  (negative ? -1n : 1n) * coefficient * 10n ** BigInt(exponent);

function roundNumber(value: unknown, place: number, rounding: Rounding): unknown {
  if (value instanceof Decimal128) {
    const text = value.toString();
    if (!/\d/.test(text)) return value; // NaN and the infinities
    return Decimal128.fromString(decimalText(quantize(parseDecimal(text), place, rounding)));
  }
  if (value instanceof Long || typeof value === 'bigint') {
    const long = typeof value === 'bigint' ? Long.fromBigInt(value) : value;
    if (place >= 0) return value;
    return Long.fromBigInt(decimalInteger(quantize(parseDecimal(long.toString()), place, rounding)));
  }
  const double = value instanceof Double ? value.value : (value as number);
  if (typeof value === 'number' && typeName(value) === 'int') {
    if (place >= 0) return value;
    const rounded = Number(decimalInteger(quantize(parseDecimal(String(value)), place, rounding)));
    // An int that outgrows 32 bits becomes a long, as on MongoDB.
    return typeName(rounded) === 'int' ? rounded : Long.fromNumber(rounded);
  }
  if (!Number.isFinite(double)) return value;
  const rounded = Number(decimalText(quantize(parseDecimal(double.toPrecision(34)), place, rounding)));
  // An integral result stays a double (a plain JS integer would be stored as an int).
  return Number.isInteger(rounded) ? new Double(rounded) : rounded;
}

const isNumeric = (value: unknown): boolean => ['int', 'long', 'double', 'decimal'].includes(typeName(value));

function roundingOperator(name: string, rounding: Rounding) {
  return (obj: unknown, expr: unknown, options: Options): unknown => {
    const args = (Array.isArray(expr) ? expr : [expr]).map((arg) => evalExpr(obj, arg, options));
    const [value, placeArg = 0] = args;
    if (value === null || value === undefined) return null;
    if (!isNumeric(value))
      throw locationError(51081, `${name} only supports numeric types, not ${typeName(value)}`);
    if (placeArg === null) return null;
    const place = Number(numericValue(placeArg));
    if (!Number.isInteger(place))
      throw locationError(51082, `precision argument to  ${name} must be a integral value`);
    if (place < MIN_PLACE || place > MAX_PLACE)
      throw locationError(
        51083,
        `cannot apply ${name} with precision value ${place} value must be in [${MIN_PLACE}, ${MAX_PLACE}]`,
      );
    return roundNumber(value instanceof Int32 ? value.value : value, place, rounding);
  };
}

export const roundingOperators = {
  $round: roundingOperator('$round', 'halfEven'),
  $trunc: roundingOperator('$trunc', 'towardZero'),
};
