import type { Context, Middleware } from 'koa';
import { contentEntityTag, entityTag } from './entity-tag.ts';

declare module 'koa' {
  interface DefaultState {
    /** Set by a handler whose body is already serialized JSON with a known tag (stored with the record). */
    entityTag?: string;
    /**
     * Set by a handler whose answer holds only until then (a time in ms) whatever the data (`open_now`: the
     * next minute): caches may keep it no longer, and the server keeps none (response-cache.ts).
     */
    freshUntil?: number;
  }
}

/**
 * Serializes object bodies as JSON once (unless the handler sends JSON serialized at import, with its tag;
 * text and bytes are sent as they are, in the type the handler gave them), gives every 200 a strong ETag
 * (a digest of the exact bytes) and the configured Cache-Control, and answers a matching If-None-Match
 * with 304. Streamed bodies (NDJSON) are left alone: their bytes are not known before they are sent.
 */
export function etag(cacheControl: string): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 200) return;
    const tag = bodyEntityTag(ctx);
    if (tag === undefined) return;
    ctx.set('ETag', tag);
    const until = ctx.state.freshUntil;
    // Whole seconds left as the answer goes, rounded down: a cache counts them from the Date sent with it.
    const fresh = until === undefined ? undefined : Math.max(0, Math.floor((until - Date.now()) / 1000));
    ctx.set(
      'Cache-Control',
      fresh === undefined
        ? cacheControl
        : cacheControl.replace(
            /max-age=(\d+)/,
            (_, age: string) => `max-age=${Math.min(Number(age), fresh)}`,
          ),
    );
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
    const validated = matching(ctx.get('If-None-Match'), tag);
    if (validated !== undefined) {
      ctx.status = 304;
      ctx.body = null;
      // The tag the client holds: the one its copy came with (compressed or not).
      ctx.set('ETag', validated);
    }
  };
}

/**
 * The strong tag of a response's body, serializing an object body as JSON first (once); undefined for a
 * streamed body. A handler that sent JSON serialized at import gives its tag in `ctx.state.entityTag`.
 */
export function bodyEntityTag(ctx: Context): string | undefined {
  if (ctx.state.entityTag !== undefined) return ctx.state.entityTag;
  if (typeof ctx.body === 'string' || Buffer.isBuffer(ctx.body)) {
    ctx.state.entityTag = entityTag(ctx.body);
  } else if (isJsonValue(ctx.body)) {
    const bytes = Buffer.from(JSON.stringify(ctx.body));
    ctx.body = bytes;
    ctx.type = 'application/json';
    ctx.state.entityTag = entityTag(bytes);
  }
  return ctx.state.entityTag;
}

/**
 * The tag of If-None-Match that names this content (in any content coding), if any. RFC 9110 13.1.2:
 * If-None-Match uses weak comparison. Evaluated here rather than with Koa's `ctx.fresh`, which (written
 * for caches) ignores validators when the request says `Cache-Control: no-cache`, as browsers' and
 * undici's fetch do with every conditional request.
 */
function matching(ifNoneMatch: string, tag: string): string | undefined {
  if (ifNoneMatch.trim() === '*') return tag;
  return ifNoneMatch
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .find((candidate) => contentEntityTag(candidate) === tag);
}

const isJsonValue = (body: unknown) =>
  body !== null &&
  typeof body === 'object' &&
  !Buffer.isBuffer(body) &&
  typeof (body as { pipe?: unknown }).pipe !== 'function';
