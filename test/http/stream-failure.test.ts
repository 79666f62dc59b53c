/**
 * A streamed body (NDJSON, minimal lists) whose source fails after the status was sent: the client must
 * see the body cut short, compressed or not, and the failure must be logged. A client that leaves the change
 * feed's live events is no failure of the server's.
 */
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compression } from '../../src/http/compression.ts';
import { HEARTBEAT, sendEventStream } from '../../src/http/event-stream.ts';
import { sendNdjson } from '../../src/http/ndjson.ts';
import { requestId } from '../../src/http/request-id.ts';
import { createLogger } from '../../src/log.ts';

const logged: string[] = [];
let server: Server;

/** Several chunks of lines, then the failure of a cursor whose database went away. */
async function* failingItems(): AsyncGenerator<object> {
  for (let index = 0; index < 3000; index += 1) yield { id: index, text: `item ${index} `.repeat(10) };
  await new Promise((resolve) => setTimeout(resolve, 20));
  throw new Error('connection to the database lost');
}

/** An event, then heartbeats, until the stream ends. */
async function* endlessEvents(signal: AbortSignal) {
  yield { id: '1', data: '{}' };
  while (!signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    yield HEARTBEAT;
  }
}

beforeAll(async () => {
  const logger = createLogger('info', { write: (line: string) => void logged.push(line) });
  const app = new Koa();
  app.silent = true;
  app.use(requestId(logger));
  app.use(compression());
  app.use(async (ctx) => {
    if (ctx.path === '/events') sendEventStream(ctx, undefined, endlessEvents);
    else await sendNdjson(ctx, failingItems());
  });
  server = createServer(app.callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * How the response ended: `complete`, or `cut short` (the connection closed before the end: a compressor
 * that had not flushed anything yet may close it even before the status line); `hanging` if not in time.
 */
function responseEnd(encoding: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve) => {
    const sent = request({ port, host: '127.0.0.1', path: '/', headers: { 'Accept-Encoding': encoding } });
    const timer = setTimeout(() => {
      resolve('hanging');
      sent.destroy();
    }, 5_000);
    const ended = (end: string) => {
      clearTimeout(timer);
      resolve(end);
    };
    sent.once('error', () => ended('cut short'));
    sent.once('response', (response) => {
      expect(response.statusCode).toBe(200);
      response.resume();
      response.once('error', () => {});
      response.once('close', () => ended(response.complete ? 'complete' : 'cut short'));
    });
    sent.end();
  });
}

describe('a streamed body whose source fails once sent', () => {
  it.each(['gzip', 'br', 'identity'])(
    'is cut short for the client (%s), never left hanging',
    async (encoding) => {
      logged.length = 0;
      expect(await responseEnd(encoding)).toBe('cut short');
      const failures = logged.map((line) => JSON.parse(line)).filter((entry) => entry.level === 50);
      expect(failures).toEqual([
        expect.objectContaining({
          msg: 'response stream failed after it started',
          err: expect.objectContaining({ message: 'connection to the database lost' }),
          reqId: expect.any(String),
        }),
      ]);
    },
  );
});

describe("a client leaving the change feed's live events", () => {
  it('is not logged as a failure', async () => {
    const path = '/events';
    logged.length = 0;
    const { port } = server.address() as AddressInfo;
    for (let client = 0; client < 20; client += 1) {
      const sent = request({ port, host: '127.0.0.1', path, headers: { 'Accept-Encoding': 'identity' } });
      const [response] = (await once(sent.end(), 'response')) as [IncomingMessage];
      await once(response, 'data');
      const closed = once(sent, 'close');
      sent.destroy();
      await closed;
    }
    // The server's side of the last connections closes after the client's.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logged.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50)).toEqual([]);
  });
});
