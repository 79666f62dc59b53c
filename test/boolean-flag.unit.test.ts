import { describe, expect, it } from 'vitest';
import { booleanFlag, FLAG_RULE, parseBooleanFlag } from '../src/boolean-flag.ts';

describe('parseBooleanFlag', () => {
  it.each(['true', '1', 'yes', 'TRUE', 'True', 'YES', 'yEs'])('reads %s as true', (text) => {
    expect(parseBooleanFlag(text)).toBe(true);
  });

  it.each(['false', '0', 'no', 'FALSE', 'False', 'NO', 'nO'])('reads %s as false', (text) => {
    expect(parseBooleanFlag(text)).toBe(false);
  });

  it.each(['', 'maybe', 'on', 'off', 'y', 'n', '2', '01', ' true', 'true ', 'truee'])(
    'reads %j as no flag',
    (text) => {
      expect(parseBooleanFlag(text)).toBeUndefined();
    },
  );
});

describe('booleanFlag', () => {
  it('takes the spellings, and the booleans of a JSON body', () => {
    expect(booleanFlag.parse('Yes')).toBe(true);
    expect(booleanFlag.parse('0')).toBe(false);
    expect(booleanFlag.parse(true)).toBe(true);
    expect(booleanFlag.parse(false)).toBe(false);
  });

  it('refuses anything else, saying which spellings it takes', () => {
    for (const value of ['maybe', 1, null, {}]) {
      const parsed = booleanFlag.safeParse(value);
      expect(parsed.success, JSON.stringify(value)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(FLAG_RULE);
    }
    expect(FLAG_RULE).toBe('must be true, 1 or yes, or false, 0 or no');
  });
});
