import { Decimal128, Double, Long } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { describe, expect, it } from 'vitest';
import { mingoOptions } from '../src/query/mingo-context.ts';

const evaluate = (expression: unknown): unknown =>
  new Aggregator([{ $project: { _id: 0, v: expression } }], mingoOptions()).run([{ _id: 1 }])[0]?.v;

describe('$round and $trunc', () => {
  it('round doubles half to even at any place', () => {
    expect(evaluate({ $round: [2.5, 0] })).toEqual(new Double(2));
    expect(evaluate({ $round: [3.5, 0] })).toEqual(new Double(4));
    expect(evaluate({ $round: [-2.5, 0] })).toEqual(new Double(-2));
    expect(evaluate({ $round: [0.125, 2] })).toBe(0.12);
    expect(evaluate({ $round: [1250.5, -2] })).toEqual(new Double(1300));
    expect(evaluate({ $round: [1250, -2] })).toBe(1200);
    expect(evaluate({ $round: [1234.5678, -4] })).toEqual(new Double(0));
  });

  it('keep the numeric type: ints stay ints (or grow into longs), longs and decimals stay so', () => {
    expect(evaluate({ $round: [19, 2] })).toBe(19);
    expect(evaluate({ $round: [2147483647, -1] })).toEqual(Long.fromNumber(2147483650));
    expect(evaluate({ $round: [Long.fromNumber(1550), -2] })).toEqual(Long.fromNumber(1600));
    expect(String(evaluate({ $round: [Decimal128.fromString('1.2345'), 3] }))).toBe('1.234');
    expect(String(evaluate({ $trunc: [Decimal128.fromString('-1.2399'), 2] }))).toBe('-1.23');
    expect(String(evaluate({ $round: [Decimal128.fromString('1.2'), 3] }))).toBe('1.200');
  });

  it('truncate toward zero, with place 0 by default', () => {
    expect(evaluate({ $trunc: [-7.9] })).toEqual(new Double(-7));
    expect(evaluate({ $trunc: [7.987, 2] })).toBe(7.98);
    expect(evaluate({ $trunc: [1999, -3] })).toBe(1000);
  });

  it('return null for null input and keep NaN and infinities', () => {
    expect(evaluate({ $round: [null, 1] })).toBeNull();
    expect(evaluate({ $round: [1.5, null] })).toBeNull();
    expect(evaluate({ $round: [Infinity, 1] })).toBe(Infinity);
    expect(evaluate({ $trunc: [NaN, 0] })).toBeNaN();
  });

  it("reject what MongoDB rejects, with MongoDB's codes", () => {
    expect(() => evaluate({ $round: ['x', 0] })).toThrow(expect.objectContaining({ code: 51081 }));
    expect(() => evaluate({ $round: [1, 1.5] })).toThrow(expect.objectContaining({ code: 51082 }));
    expect(() => evaluate({ $round: [1, 101] })).toThrow(expect.objectContaining({ code: 51083 }));
  });
});
