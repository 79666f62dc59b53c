/**
 * The baseline of bench/read.ts: a bare node:http server, in a process of its own like the app, that
 * answers each path with the bytes the app sent for it. Told to prime, it fetches those responses from the
 * app (every path the bench will ask it for) and then serves them from memory, body and headers (all but
 * those of the connection and the framing, which it sets itself, with a `Content-Length`): its load client
 * then reads the same responses as the app's and costs as much per request, so that the two rates differ
 * by the servers alone. For the loads of queries no cache has seen, the paths it is primed with are drawn
 * from the same distribution as the app's, which the app is then never asked. Any other path is a 404.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { childOfBench } from './child-process.ts';
import { fetchAll, type FetchedResponse } from './http-load.ts';

export interface BarePriming {
  origin: string;
  paths: string[];
  concurrency: number;
}

export interface Primed {
  responses: number;
  bytes: number;
}

const parent = childOfBench();
let responses = new Map<string, FetchedResponse>();
const server = createServer((request, response) => {
  const known = responses.get(request.url ?? '');
  if (known === undefined) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, [...known.headers, 'Content-Length', String(known.body.length)]);
  response.end(known.body);
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const { port } = server.address() as { port: number };

parent.serve<BarePriming, Primed>({
  address: `http://127.0.0.1:${port}`,
  async answer({ origin, paths, concurrency }) {
    responses = await fetchAll(origin, paths, concurrency);
    let bytes = 0;
    for (const { body } of responses.values()) bytes += body.length;
    return { responses: responses.size, bytes };
  },
  async close() {
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    await closed;
  },
});
