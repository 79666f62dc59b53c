import { z } from 'zod';

/**
 * The one set of spellings a boolean flag takes, in any case: the query parameters of the core lists and
 * of `POST /import`, and the environment's boolean variables.
 */
export const FLAG_SPELLINGS = { true: ['true', '1', 'yes'], false: ['false', '0', 'no'] } as const;

const either = (spellings: readonly string[]) =>
  `${spellings.slice(0, -1).join(', ')} or ${spellings.at(-1)}`;

/** What a flag's error says about its value; the caller names the parameter or variable. */
export const FLAG_RULE = `must be ${either(FLAG_SPELLINGS.true)}, or ${either(FLAG_SPELLINGS.false)}`;

/** A flag's text as a boolean, or undefined when it is none of the spellings. */
export function parseBooleanFlag(text: string): boolean | undefined {
  const spelling = text.toLowerCase();
  if ((FLAG_SPELLINGS.true as readonly string[]).includes(spelling)) return true;
  if ((FLAG_SPELLINGS.false as readonly string[]).includes(spelling)) return false;
  return undefined;
}

/**
 * A flag as zod parses it: text in one of the spellings or, in a JSON body, a boolean; anything else is an
 * issue saying `FLAG_RULE`. Described as a JSON Schema boolean.
 */
export const booleanFlag = z.preprocess(
  (value) => (typeof value === 'string' ? (parseBooleanFlag(value) ?? value) : value),
  z.boolean({ error: FLAG_RULE }),
);
