import type { Middleware } from 'koa';
import compress from 'koa-compress';
import { codedEntityTag } from './entity-tag.ts';

/** Bodies smaller than this are sent as they are: compressing them saves less than it costs. */
const THRESHOLD_BYTES = 1024;

/** Everything we send that is text; koa-compress's default filter does not know NDJSON. */
const COMPRESSIBLE = /^(text\/|application\/(json|x-ndjson|javascript|xml)\b|application\/[\w.-]+\+json\b)/;

const STRONG_TAG = /^"[^"]*"$/;

/**
 * Compresses responses (gzip, deflate or brotli, as the client accepts) whose type is text, and gives a
 * compressed response the strong ETag of its coding (see `codedEntityTag`). A client that accepts none of
 * the codings, not even identity (`identity;q=0`), gets the body as it is (RFC 9110 12.5.3 allows that or
 * a 406; koa-compress would fail with a 500).
 */
export function compression(): Middleware {
  const compressing = compress({ threshold: THRESHOLD_BYTES, filter: (type) => COMPRESSIBLE.test(type) });
  const codings = compressing.preferredEncodings;
  return async (ctx, next) => {
    // Without Accept-Encoding koa-compress sends the body as it is (its default coding is identity): most
    // API clients send none, and its negotiation is a measurable part of serving a record.
    if (ctx.get('Accept-Encoding') === '') {
      ctx.vary('Accept-Encoding');
      return next();
    }
    // koa-compress leaves HEAD alone, so a HEAD would show the identity form's length and tag where the GET
    // it stands for sends another coding (RFC 9110 9.3.2: the same header fields). It is negotiated as a GET
    // here; Koa sends a HEAD's headers without its body, and destroys the unread stream once answered.
    const head = ctx.method === 'HEAD';
    try {
      await compressing(ctx, async () => {
        await next();
        if (!ctx.acceptsEncodings(codings)) ctx.compress = false;
        if (head) ctx.method = 'GET';
      });
    } finally {
      if (head) ctx.method = 'HEAD';
    }
    const coding = ctx.response.get('Content-Encoding');
    const tag = ctx.response.get('ETag');
    if (coding && coding !== 'identity' && STRONG_TAG.test(tag)) ctx.set('ETag', codedEntityTag(tag, coding));
  };
}
