import { Readable } from 'node:stream';
import type { Context } from 'koa';

/** One server-sent event: `data` is a line of text (JSON here), `id` what the client resumes from. */
export interface ServerSentEvent {
  id?: string;
  data: string;
}

/** A comment line, sent when nothing else was for a while: proxies drop connections that stay silent. */
export const HEARTBEAT = Symbol('heartbeat');

/**
 * Answers with a stream of server-sent events (`text/event-stream`) for as long as `events` gives them.
 * `events` is ended (its `return`) when the client goes, and should stop waiting on `signal`'s abort,
 * which comes then too. Never compressed: a compressing stream would hold events back until it had
 * enough to compress.
 */
export function sendEventStream(
  ctx: Context,
  events: (signal: AbortSignal) => AsyncGenerator<ServerSentEvent | typeof HEARTBEAT>,
): void {
  const gone = new AbortController();
  const source = events(gone.signal);
  const stream = Readable.from(rendered(source));
  stream.once('close', () => {
    gone.abort();
    void source.return(undefined).catch(() => {});
  });
  stream.once('error', (error) => {
    ctx.state.logger.error({ err: error, path: ctx.path }, 'event stream failed');
    ctx.res.destroy(error);
  });
  ctx.req.socket.setNoDelay(true);
  ctx.compress = false;
  ctx.set('Cache-Control', 'no-store');
  // nginx and others buffer responses unless told not to.
  ctx.set('X-Accel-Buffering', 'no');
  ctx.type = 'text/event-stream';
  ctx.body = stream;
}

async function* rendered(events: AsyncIterable<ServerSentEvent | typeof HEARTBEAT>): AsyncGenerator<string> {
  for await (const event of events) {
    if (event === HEARTBEAT) yield ': heartbeat\n\n';
    else yield `${event.id === undefined ? '' : `id: ${event.id}\n`}data: ${event.data}\n\n`;
  }
}
