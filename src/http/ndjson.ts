import { Readable } from 'node:stream';
import type { Context } from 'koa';

/** JSON already serialized (a record stored in its served form): written as it is. */
export class SerializedJson {
  constructor(readonly text: string) {}
}

const render = (item: unknown) => (item instanceof SerializedJson ? item.text : JSON.stringify(item));

/** Lines are sent in chunks of about this many bytes: fewer, larger writes without holding much. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Streams items as NDJSON. The stream pulls from `items` only as fast as the client reads (backpressure),
 * so memory stays flat whatever the count; if the client goes away, the stream is destroyed, which ends
 * the generator and so closes the database cursor behind it.
 */
export function sendNdjson(ctx: Context, items: AsyncIterable<unknown>): void {
  ctx.type = 'application/x-ndjson';
  ctx.body = Readable.from(chunks(items, (item) => `${render(item)}\n`));
}

/** Streams items as one JSON array, for the `minimal` listing the spec wants in a single response. */
export function sendJsonArray(ctx: Context, items: AsyncIterable<unknown>): void {
  ctx.type = 'application/json';
  ctx.body = Readable.from(jsonArray(items));
}

async function* jsonArray(items: AsyncIterable<unknown>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  yield* chunks(items, (item) => {
    const text = `${first ? '' : ','}${render(item)}`;
    first = false;
    return text;
  });
  yield ']';
}

async function* chunks(
  items: AsyncIterable<unknown>,
  render: (item: unknown) => string,
): AsyncGenerator<string> {
  let buffer = '';
  for await (const item of items) {
    buffer += render(item);
    if (buffer.length >= CHUNK_BYTES) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}
