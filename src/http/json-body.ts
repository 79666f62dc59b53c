import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { HttpProblem } from './problem.ts';
import { refuseOtherCharsets } from './utf8-charset.ts';

/** The body types taken as JSON, by the check and the parser alike (koa-body's own list is narrower). */
const JSON_TYPES = ['json', '+json'];

/**
 * Parses JSON request bodies up to `limitBytes`. Parser failures become problems that say what was wrong
 * with the body, without echoing it back.
 */
export function jsonBody(limitBytes: number): Middleware {
  const parse = koaBody({
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
    return parse(ctx, next);
  };
}
