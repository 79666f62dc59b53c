import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';

/**
 * Serializes JSON bodies once, gives every 200 a strong ETag (a digest of the exact bytes) and the
 * configured Cache-Control, and answers a matching If-None-Match with 304. Streamed bodies (NDJSON) are
 * left alone: their bytes are not known before they are sent.
 */
export function etag(cacheControl: string): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 200 || !isJsonValue(ctx.body)) return;
    const bytes = Buffer.from(JSON.stringify(ctx.body));
    ctx.body = bytes;
    ctx.type = 'application/json';
    const tag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
    ctx.set('ETag', tag);
    ctx.set('Cache-Control', cacheControl);
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && matches(ctx.get('If-None-Match'), tag)) {
      ctx.status = 304;
      ctx.body = null;
    }
  };
}

/**
 * RFC 9110 13.1.2: If-None-Match uses weak comparison. Evaluated here rather than with Koa's `ctx.fresh`,
 * which (written for caches) ignores validators when the request says `Cache-Control: no-cache`, as
 * browsers' and undici's fetch do with every conditional request.
 */
function matches(ifNoneMatch: string, tag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}

const isJsonValue = (body: unknown) =>
  body !== null &&
  typeof body === 'object' &&
  !Buffer.isBuffer(body) &&
  typeof (body as { pipe?: unknown }).pipe !== 'function';
