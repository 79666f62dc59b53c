import compress from 'koa-compress';

/** Bodies smaller than this are sent as they are: compressing them saves less than it costs. */
const THRESHOLD_BYTES = 1024;

/** Everything we send that is text; koa-compress's default filter does not know NDJSON. */
const COMPRESSIBLE = /^(text\/|application\/(json|x-ndjson|javascript|xml)\b|application\/[\w.-]+\+json\b)/;

/** Compresses responses (gzip, deflate or brotli, as the client accepts) whose type is text. */
export const compression = () =>
  compress({ threshold: THRESHOLD_BYTES, filter: (type) => COMPRESSIBLE.test(type) });
