/**
 * A feed of another publisher's HSDS API for the harvest tests: only the endpoints the specification
 * REQUIRES, its own paging limit, and faults injected once each.
 */
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Json } from '../../src/json.ts';

/** Answers a feed's request with a JSON body. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/**
 * The feed of `services`: `/` and `/services` (at most 7 a page, list items without their nested lists),
 * `/services/{id}`; everything else 404. Page 2 fails once (500), page 3 is slow (300 ms), the 5th record
 * answers 429 with Retry-After: 1 once, the 10th a body cut short once. `seen.headers` gathers the
 * Authorization header of each request.
 */
export function requiredOnlyFeed(services: Json[], seen: { headers: string[] }) {
  const served = new Set<string>();
  const once = (key: string) => !served.has(key) && served.add(key);
  const listItem = ({ id, name, status }: Json) => ({ id, name, status });
  return createServer((request, response) => {
    seen.headers.push(String(request.headers.authorization));
    const url = new URL(request.url!, 'http://feed');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      sendJson(response, status, body, headers);
    if (url.pathname === '/') return send(200, { version: '3.0.1', profile: 'https://example.org' });
    if (url.pathname === '/services') {
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 50), 7);
      const page = Number(url.searchParams.get('page') ?? 1);
      if (page === 2 && once('page 2')) return send(500, { error: 'try again' });
      const contents = services.slice((page - 1) * perPage, page * perPage).map(listItem);
      const body = {
        total_items: services.length,
        total_pages: Math.ceil(services.length / perPage),
        page_number: page,
        size: contents.length,
        contents,
      };
      if (page === 3) return void setTimeout(() => send(200, body), 300);
      return send(200, body);
    }
    const match = /^\/services\/(.+)$/.exec(url.pathname);
    const service = match && services.find((candidate) => candidate.id === match[1]);
    if (!service) return send(404, { error: 'not found' });
    if (service === services[4] && once('429'))
      return send(429, { error: 'slow down' }, { 'Retry-After': '1' });
    if (service === services[9] && once('truncated')) {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '5000' });
      response.write(JSON.stringify(service).slice(0, 100));
      return void setTimeout(() => response.destroy(), 20);
    }
    return send(200, service);
  });
}

/** Listens on a free loopback port; gives the base URL. */
export async function listening(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
}
