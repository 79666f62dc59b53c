import { z } from 'zod';

/**
 * A whole number within [min, max], given as query-string text (`"12"`) or, in a JSON body, as a number;
 * described as a JSON Schema integer. Text that is not plain digits (`"1e3"`, `"0x10"`, `"two"`) is refused.
 */
export const queryInteger = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
    z
      .int({ error: 'must be an integer', abort: true })
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`),
  );
