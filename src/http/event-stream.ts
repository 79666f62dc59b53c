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
 * `events` should end, and stop waiting, once its `signal` aborts: when the client goes, or the server
 * stops (`stopping`); it is also ended (its `return`) when the client goes. Never compressed: a
 * compressing stream would hold events back until it had enough to compress.
 */
export function sendEventStream(
  ctx: Context,
  stopping: AbortSignal | undefined,
  events: (signal: AbortSignal) => AsyncGenerator<ServerSentEvent | typeof HEARTBEAT>,
): void {
  const ended = new AbortController();
  // A listener of its own, removed with the stream: the server's signal outlives many streams.
  const stop = () => ended.abort();
  stopping?.addEventListener('abort', stop, { once: true });
  if (stopping?.aborted) stop();
  const source = events(ended.signal);
  const stream = Readable.from(rendered(source));
  stream.once('close', () => {
    stopping?.removeEventListener('abort', stop);
    ended.abort();
    void source.return(undefined).catch(() => {});
  });
  stream.once('error', (error) => {
    // Koa's pipeline destroys the body with ERR_STREAM_PREMATURE_CLOSE when the client goes first: how a
    // client stops following the feed, no failure of the server's.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE')
      ctx.state.logger.debug({ path: ctx.path }, 'event stream left by its client');
    else ctx.state.logger.error({ err: error, path: ctx.path }, 'event stream failed');
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
