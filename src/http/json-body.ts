import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { firstInvalidUtf8, UNPAIRED_SURROGATE } from '../utf8.ts';
import { HttpProblem } from './problem.ts';
import { refuseOtherCharsets } from './utf8-charset.ts';

/** The body types taken as JSON, by the check and the parser alike (koa-body's own list is narrower). */
const JSON_TYPES = ['json', '+json'];

/** UTF-8's byte order mark, as its bytes read one character each. */
const BYTE_ORDER_MARK_BYTES = '\u00ef\u00bb\u00bf';

/**
 * Parses JSON request bodies up to `limitBytes`. Parser failures become problems that say what was wrong
 * with the body, without echoing it back; so do bytes that are not UTF-8.
 */
export function jsonBody(limitBytes: number): Middleware {
  const parse = koaBody({
    // Read one character per byte, and decoded as UTF-8 after (decodeUtf8Body): koa-body's own decoding puts
    // U+FFFD in place of bytes that are not UTF-8 without telling, and what is stored would not be what
    // was sent.
    encoding: 'latin1',
    includeUnparsed: true,
    json: true,
    jsonTypes: JSON_TYPES,
    multipart: false,
    urlencoded: false,
    text: false,
    jsonLimit: limitBytes,
    jsonStrict: false,
    onError: (error) => {
      const { status, message, code } = error as { status?: number; message?: string; code?: unknown };
      if (status === 413) throw new HttpProblem(413, `The request body is larger than ${limitBytes} bytes.`);
      if (status === 415 && message?.startsWith('Unsupported Content-Encoding')) {
        throw new HttpProblem(415, `${message}: send the body uncompressed, or gzip, deflate or br.`);
      }
      if (status === 415) throw new HttpProblem(415, 'The request body must be application/json.');
      // zlib's (Z_DATA_ERROR, …) and brotli's (ERR__ERROR_FORMAT_…): the body is not what its
      // Content-Encoding says.
      if (typeof code === 'string' && /^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(code)) {
        throw new HttpProblem(
          400,
          'The request body could not be decompressed as its Content-Encoding says.',
        );
      }
      if (
        status === 400 &&
        (error as { body?: unknown }).body?.toString().startsWith(BYTE_ORDER_MARK_BYTES)
      ) {
        throw new HttpProblem(
          400,
          'The request body starts with a byte order mark, which JSON sent over HTTP must not have (RFC 8259).',
        );
      }
      // The parser refuses `__proto__` keys (prototype poisoning): valid JSON, refused all the same.
      if (status === 400 && message?.includes('forbidden prototype property')) {
        throw new HttpProblem(400, 'The request body has a "__proto__" key, which is refused.');
      }
      if (status !== undefined && status >= 400 && status < 500) {
        throw new HttpProblem(400, 'The request body is not valid JSON.');
      }
      throw error;
    },
  });
  // koa-body leaves bodies of other types unread; a body we would silently ignore is refused instead.
  return async (ctx, next) => {
    const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('transfer-encoding') !== '';
    if (hasBody && !ctx.is(JSON_TYPES)) {
      throw new HttpProblem(415, 'The request body must be application/json.');
    }
    if (hasBody) refuseOtherCharsets(ctx);
    return parse(ctx, () => {
      decodeUtf8Body(ctx);
      refuseUnpairedSurrogates(ctx);
      return next();
    });
  };
}

/**
 * Replaces the body koa-body parsed from its bytes read as Latin-1 with the body they make as UTF-8, or
 * refuses them (400) if they are not UTF-8. A body of ASCII alone reads alike both ways: parsed once.
 * The first parse has refused `__proto__` keys already: the keys are the same in both readings.
 */
function decodeUtf8Body(ctx: Context): void {
  const { rawBody } = ctx.request;
  if (rawBody === undefined || !NON_ASCII.test(rawBody)) return;
  const bytes = Buffer.from(rawBody, 'latin1');
  const invalid = firstInvalidUtf8(bytes);
  if (invalid !== -1)
    throw new HttpProblem(400, `The request body is not UTF-8: invalid UTF-8 at byte ${invalid}.`);
  ctx.request.body = JSON.parse(bytes.toString('utf8')) as typeof ctx.request.body;
}

/** A byte of 0x80 or more, in bytes read as Latin-1. */
const NON_ASCII = /[\u0080-\u00ff]/;

/** A `\uD800`-`\uDFFF` escape in JSON text: the start of a surrogate pair, or one alone. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Refuses (400) a body whose JSON escapes an unpaired surrogate. Only a body escaping surrogates is walked. */
function refuseUnpairedSurrogates(ctx: Context): void {
  const { rawBody } = ctx.request;
  if (rawBody === undefined || !SURROGATE_ESCAPE.test(rawBody) || isUnicodeText(ctx.request.body)) return;
  throw new HttpProblem(400, `The request body holds ${UNPAIRED_SURROGATE}.`);
}

/**
 * Whether every text of a JSON value, names included, is well-formed Unicode. Iterative: a body may be nested
 * deeper than the call stack goes.
 */
function isUnicodeText(value: unknown): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (!item.isWellFormed()) return false;
    } else if (Array.isArray(item)) {
      for (const member of item) pending.push(member);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, member] of Object.entries(item)) {
        if (!key.isWellFormed()) return false;
        pending.push(member);
      }
    }
  }
  return true;
}
