import { Readable } from 'node:stream';
import type { Context } from 'koa';

/**
 * JSON already serialized (a record stored in its served form): its UTF-8 bytes, written as they are, in
 * pieces where parts stored apart are spliced together (joined only in the chunk they are sent in).
 */
export class SerializedJson {
  readonly pieces: readonly Buffer[];
  constructor(bytes: Buffer | readonly Buffer[]) {
    this.pieces = Buffer.isBuffer(bytes) ? [bytes] : bytes;
  }
}

const NEWLINE = Buffer.from('\n');
const COMMA = Buffer.from(',');
const OPEN_ARRAY = Buffer.from('[');
const CLOSE_ARRAY = Buffer.from(']');

const piecesOf = (item: unknown): readonly Buffer[] =>
  item instanceof SerializedJson ? item.pieces : [Buffer.from(JSON.stringify(item), 'utf8')];

/** Lines are sent in chunks of about this many bytes: fewer, larger writes without holding much. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Streams items as NDJSON. The stream pulls from `items` only as fast as the client reads (backpressure),
 * so memory stays flat whatever the count; if the client goes away, the stream is destroyed, which ends
 * the generator and so closes the database cursor behind it. The first chunk is read before anything is
 * sent: a query that fails at once (the database unreachable) reaches the error handler as a problem. One
 * that fails later, once the status is sent, is logged and the connection aborted, so that the client
 * sees the body cut short rather than complete.
 */
export async function sendNdjson(ctx: Context, items: AsyncIterable<unknown>): Promise<void> {
  const body = await started(
    ctx,
    chunks(items, (item) => [...piecesOf(item), NEWLINE]),
  );
  ctx.type = 'application/x-ndjson';
  ctx.body = body;
}

/** Streams items as one JSON array, for the `minimal` listing the spec wants in a single response. */
export async function sendJsonArray(ctx: Context, items: AsyncIterable<unknown>): Promise<void> {
  let first = true;
  const render = (item: unknown) => {
    const parts = first ? piecesOf(item) : [COMMA, ...piecesOf(item)];
    first = false;
    return parts;
  };
  const body = await started(ctx, chunks(items, render, OPEN_ARRAY, CLOSE_ARRAY));
  ctx.type = 'application/json';
  ctx.body = body;
}

/** A stream of `chunks` whose first chunk has already been read (so its failure is thrown here). */
async function started(ctx: Context, chunks: AsyncGenerator<Buffer>): Promise<Readable> {
  const first = await chunks.next();
  async function* all(): AsyncGenerator<Buffer> {
    if (first.done) return;
    yield first.value;
    yield* chunks;
  }
  const stream = Readable.from(all());
  // A client gone before the stream was read still closes the cursor behind the chunks.
  stream.once('close', () => void chunks.return(undefined).catch(() => {}));
  // Koa only logs (and we silence it: see app.ts) an error of a body once its headers are sent, and a
  // compressing stream in between would wait for the rest forever, leaving the client hanging.
  stream.once('error', (error) => {
    ctx.state.logger.error({ err: error, path: ctx.path }, 'response stream failed after it started');
    ctx.res.destroy(error);
  });
  return stream;
}

/** Items rendered into chunks of about CHUNK_BYTES, between `open` and `close`. */
async function* chunks(
  items: AsyncIterable<unknown>,
  render: (item: unknown) => readonly Buffer[],
  open?: Buffer,
  close?: Buffer,
): AsyncGenerator<Buffer> {
  let parts: Buffer[] = open ? [open] : [];
  let size = open?.length ?? 0;
  for await (const item of items) {
    for (const part of render(item)) {
      parts.push(part);
      size += part.length;
    }
    if (size >= CHUNK_BYTES) {
      yield Buffer.concat(parts, size);
      parts = [];
      size = 0;
    }
  }
  if (close) {
    parts.push(close);
    size += close.length;
  }
  if (size > 0) yield Buffer.concat(parts, size);
}
