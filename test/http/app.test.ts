import { request } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ HSDS_BODY_LIMIT_BYTES: '4096' });
});
afterAll(async () => app?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers });

/** A request by node:http, which sends what fetch refuses to (a TRACE, a Host of our choosing). */
const send = (method: string, url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; allow: string | undefined; type: string | undefined; body: string }>(
    (resolve, reject) => {
      const req = request(url, { method, headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            allow: response.headers.allow,
            type: response.headers['content-type'],
            body,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );

describe('GET /', () => {
  it('returns the root info object with absolute URLs', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      version: '3.0',
      profile: `${app.url}/profile`,
      openapi_url: `${app.url}/openapi.json`,
    });
  });

  it('refuses a Host that is not a valid host[:port], which its links would carry', async () => {
    for (const host of [
      'evil.example/<script>',
      'a b',
      'example.org:99999',
      'example.org:port',
      '"x"',
      'api.example.org@evil.example',
    ]) {
      for (const path of ['/', '/openapi.json']) {
        const response = await send('GET', `${app.url}${path}`, { Host: host });
        expect(response.status, `${host} ${path}`).toBe(400);
        expect(response.type).toMatch(/^application\/problem\+json/);
        expect(JSON.parse(response.body)).toMatchObject({
          status: 400,
          detail: 'The Host header is not a valid host[:port]; links are built from it.',
        });
      }
    }
    for (const host of ['api.example.org', 'api.example.org:8443', '127.0.0.1:8080', '[::1]:8080']) {
      const response = await send('GET', `${app.url}/`, { Host: host });
      expect(response.status, host).toBe(200);
      expect(JSON.parse(response.body).profile).toBe(`http://${host}/profile`);
    }
  });

  it('links to a profile and an OpenAPI document that exist', async () => {
    const root = (await (await get('/')).json()) as { profile: string; openapi_url: string };
    const profile = await fetch(root.profile);
    expect(profile.status).toBe(200);
    expect(await profile.text()).toMatch(/HSDS 3\.0 API profile/);
    const openapi = await fetch(root.openapi_url);
    expect(openapi.status).toBe(200);
    expect(await openapi.json()).toMatchObject({ openapi: '3.1.0', paths: { '/': {} } });
  });
});

describe('behind a proxy (HSDS_TRUST_PROXY), without HSDS_PUBLIC_URL', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await startTestApp({ HSDS_TRUST_PROXY: 'true' });
  });
  afterAll(async () => proxied?.close());

  it('links to the forwarded host, and says that the answer varies with the forwarded headers', async () => {
    for (const path of ['/', '/openapi.json']) {
      const response = await fetch(`${proxied.url}${path}`, {
        headers: { 'X-Forwarded-Host': 'api.example.org', 'X-Forwarded-Proto': 'https' },
      });
      expect(await response.text(), path).toContain('https://api.example.org/');
      const vary = (response.headers.get('vary') ?? '').split(/\s*,\s*/);
      expect(vary, path).toEqual(expect.arrayContaining(['X-Forwarded-Host', 'X-Forwarded-Proto']));
    }
  });

  it('refuses a forwarded host or scheme that links cannot carry', async () => {
    const refused = [
      [
        { 'X-Forwarded-Host': 'evil.example/<script>' },
        'The X-Forwarded-Host header is not a valid host[:port]',
      ],
      [
        { 'X-Forwarded-Host': 'api.example.org@evil.example' },
        'The X-Forwarded-Host header is not a valid host[:port]',
      ],
      [{ 'X-Forwarded-Proto': 'javascript' }, 'The X-Forwarded-Proto header is not http or https'],
    ] as const;
    for (const [headers, detail] of refused) {
      const response = await send('GET', `${proxied.url}/`, headers);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body).detail).toContain(detail);
    }
  });
});

describe('with HSDS_PUBLIC_URL', () => {
  let configured: TestApp;
  beforeAll(async () => {
    configured = await startTestApp({ HSDS_PUBLIC_URL: 'https://directory.example.org/api' });
  });
  afterAll(async () => configured?.close());

  it('links to it whatever the Host', async () => {
    const response = await send('GET', `${configured.url}/`, { Host: 'evil.example/<script>' });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).profile).toBe('https://directory.example.org/api/profile');
  });
});

describe('problem details', () => {
  it('answers an unknown path with a 404 problem', async () => {
    const response = await get('/no/such/thing');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No resource at /no/such/thing',
      instance: '/no/such/thing',
    });
  });

  it('answers a method a path does not support with 405 and Allow', async () => {
    const response = await fetch(`${app.url}/healthz`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toMatch(/GET/);
    expect(await response.json()).toMatchObject({ status: 405, title: 'Method Not Allowed' });
  });

  it('answers a method no route has (TRACE, PROPFIND, …) with 405 and Allow, not as a server error', async () => {
    const errorsBefore = app.logs.filter((line) => Number(line.level) >= 50).length;
    for (const method of ['TRACE', 'PROPFIND', 'PURGE', 'LINK']) {
      for (const path of ['/', '/services', '/management/users']) {
        const response = await send(method, `${app.url}${path}`);
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.allow).toMatch(/GET/);
        expect(response.type).toMatch(/^application\/problem\+json/);
        expect(JSON.parse(response.body)).toMatchObject({
          status: 405,
          title: 'Method Not Allowed',
          detail: `${method} is not a method this API answers.`,
        });
      }
    }
    expect(app.logs.filter((line) => Number(line.level) >= 50).length).toBe(errorsBefore);
    const metrics = await (await get('/metrics')).text();
    expect(metrics).not.toMatch(/method="(TRACE|PROPFIND|PURGE|LINK)"[^\n]*status="5/);
    expect(metrics).toMatch(/method="PROPFIND"[^\n]*status="405"/);
  });

  it('rejects a body over the size limit with 413', async () => {
    const response = await fetch(`${app.url}/services`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(10_000) }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('reads compressed JSON bodies, and refuses one that is not what its Content-Encoding says', async () => {
    const post = (encoding: string, body: Uint8Array | string) =>
      fetch(`${app.url}/services`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body,
      });
    expect((await post('gzip', gzipSync('{"per_page": 2}'))).status).toBe(200);
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const response = await post(encoding, 'not compressed');
      expect(response.status, encoding).toBe(400);
      expect(await response.json()).toMatchObject({
        detail: 'The request body could not be decompressed as its Content-Encoding says.',
      });
    }
    const unknown = await post('compress', 'x');
    expect(unknown.status).toBe(415);
    expect(await unknown.json()).toMatchObject({
      detail: expect.stringMatching(/^Unsupported Content-Encoding: compress/),
    });
  });

  it('reads a body of any JSON type (application/ld+json too), never ignoring it', async () => {
    const response = await fetch(`${app.url}/services`, {
      method: 'POST',
      headers: { 'content-type': 'application/ld+json' },
      body: JSON.stringify({ per_page: 100_000 }),
    });
    // Read, the body's per_page is over the maximum: ignored, it would have been a 200.
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ parameter: 'per_page' }] });
  });

  it('rejects malformed JSON with 400', async () => {
    const response = await fetch(`${app.url}/services`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"unterminated": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 400, title: 'Bad Request' });
  });
});

describe('request ids', () => {
  it('generates one when the caller sends none', async () => {
    const id = (await get('/healthz')).headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("echoes the caller's plain id and replaces an unsafe one", async () => {
    expect((await get('/healthz', { 'x-request-id': 'abc-123' })).headers.get('x-request-id')).toBe(
      'abc-123',
    );
    const unsafe = 'x'.repeat(129);
    expect((await get('/healthz', { 'x-request-id': unsafe })).headers.get('x-request-id')).not.toBe(unsafe);
  });
});

describe('cross-cutting HTTP behaviour', () => {
  it('allows cross-origin reads', async () => {
    const response = await get('/', { origin: 'https://app.example.org' });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(`${app.url}/services`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    // The request headers the profile tells a client to send, a browser's fetch among them.
    const allowed = preflight.headers.get('access-control-allow-headers')?.toLowerCase().split(',');
    expect(allowed).toEqual(
      expect.arrayContaining(['last-event-id', 'cache-control', 'if-none-match', 'x-appid', 'x-appkey']),
    );
  });

  it('compresses large responses for clients that accept it', async () => {
    // fetch would decompress transparently; read the raw bytes through node:http instead.
    const { request } = await import('node:http');
    const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      request(`${app.url}/openapi.json`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    });
    expect(raw.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(raw.body).toString('utf8'))).toMatchObject({ openapi: '3.1.0' });
  });

  it('sends the body as it is to a client that accepts no coding at all, identity included', async () => {
    for (const refusal of ['identity;q=0', '*;q=0', 'zstd;q=0, identity;q=0']) {
      const response = await fetch(`${app.url}/openapi.json`, { headers: { 'accept-encoding': refusal } });
      expect(response.status, refusal).toBe(200);
      expect(response.headers.get('content-encoding'), refusal).toBeNull();
      expect(await response.json()).toMatchObject({ openapi: '3.1.0' });
    }
  });
});

describe('health and metrics', () => {
  it('reports liveness and readiness', async () => {
    expect(await (await get('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', database: 'up', prepared: true });
  });

  it('counts requests by route template', async () => {
    await get('/');
    await get('/no/such/thing');
    const text = await (await get('/metrics')).text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/",status="200"\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.001",method="GET",route="\/"/);

    // Each request counted once in each series, the second time as the first.
    const counts = async () => {
      const metrics = await (await get('/metrics')).text();
      const value = (pattern: RegExp) => Number(pattern.exec(metrics)?.[1]);
      return [
        value(/^http_requests_total\{method="GET",route="\/",status="200"\} (\d+)$/m),
        value(/^http_request_duration_seconds_count\{method="GET",route="\/",status="200"\} (\d+)$/m),
      ];
    };
    const before = await counts();
    expect(before.every((count) => Number.isInteger(count) && count > 0)).toBe(true);
    await get('/');
    await get('/');
    expect(await counts()).toEqual(before.map((count) => count + 2));
  });
});

describe('logs', () => {
  it('logs each request with its id, status and latency, and no secret', async () => {
    await get('/healthz?code=s3cret-code&login=alice', {
      authorization: 'Basic c2VjcmV0OnBhc3N3b3Jk',
      'x-appkey': 'k3y-secret',
      'x-request-id': 'log-test-1',
    });
    const line = app.logs.find((entry) => entry.reqId === 'log-test-1' && entry.msg === 'request');
    expect(line).toMatchObject({ method: 'GET', path: '/healthz', status: 200 });
    expect(typeof line?.latencyMs).toBe('number');
    const everything = JSON.stringify(app.logs);
    for (const secret of ['s3cret-code', 'c2VjcmV0OnBhc3N3b3Jk', 'k3y-secret']) {
      expect(everything).not.toContain(secret);
    }
  });
});
