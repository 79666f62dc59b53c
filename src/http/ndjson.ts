import { Readable } from 'node:stream';
import type { Context } from 'koa';

/** JSON already serialized (a record stored in its served form): its UTF-8 bytes, written as they are. */
export class SerializedJson {
  constructor(readonly bytes: Buffer) {}
}

const NEWLINE = Buffer.from('\n');
const COMMA = Buffer.from(',');

const bytesOf = (item: unknown): Buffer =>
  item instanceof SerializedJson ? item.bytes : Buffer.from(JSON.stringify(item), 'utf8');

/** Lines are sent in chunks of about this many bytes: fewer, larger writes without holding much. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Streams items as NDJSON. The stream pulls from `items` only as fast as the client reads (backpressure),
 * so memory stays flat whatever the count; if the client goes away, the stream is destroyed, which ends
 * the generator and so closes the database cursor behind it.
 */
export function sendNdjson(ctx: Context, items: AsyncIterable<unknown>): void {
  ctx.type = 'application/x-ndjson';
  ctx.body = Readable.from(chunks(items, (item) => [bytesOf(item), NEWLINE]));
}

/** Streams items as one JSON array, for the `minimal` listing the spec wants in a single response. */
export function sendJsonArray(ctx: Context, items: AsyncIterable<unknown>): void {
  ctx.type = 'application/json';
  ctx.body = Readable.from(jsonArray(items));
}

async function* jsonArray(items: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  let first = true;
  yield Buffer.from('[');
  yield* chunks(items, (item) => {
    const parts = first ? [bytesOf(item)] : [COMMA, bytesOf(item)];
    first = false;
    return parts;
  });
  yield Buffer.from(']');
}

async function* chunks(
  items: AsyncIterable<unknown>,
  render: (item: unknown) => Buffer[],
): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let size = 0;
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
  if (size > 0) yield Buffer.concat(parts, size);
}
