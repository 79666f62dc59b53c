import type { Context } from 'koa';
import { HttpProblem } from './problem.ts';

/** Charsets a UTF-8 body may be labelled with (ASCII is a subset of it). */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * Refuses (415) a request body labelled with a charset other than UTF-8: JSON and NDJSON are UTF-8 (RFC
 * 8259), and a body in another charset would be read with its accented letters replaced by U+FFFD.
 */
export function refuseOtherCharsets(ctx: Context): void {
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && !UTF8_CHARSETS.has(charset)) {
    throw new HttpProblem(415, `The request body must be UTF-8; its charset is ${charset}.`);
  }
}
