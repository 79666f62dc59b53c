/**
 * Requests Node's HTTP parser rejects never reach the app: they still get a problem details body saying
 * what was wrong, as every other error does, and a log line.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** An app that gives each request a second to arrive whole (HSDS_REQUEST_TIMEOUT_MS; 300 s by default). */
let impatient: TestApp;
beforeAll(async () => {
  impatient = await startTestApp({ HSDS_REQUEST_TIMEOUT_MS: '1000' });
});
afterAll(async () => impatient?.close());

/** Sends raw bytes and gives back everything the server answered until it closed the connection. */
function exchange(raw: string, { url } = app): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** The status line, headers (lower-cased names) and parsed body of a raw response. */
function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { statusLine, headers, body: JSON.parse(body) as Record<string, unknown> };
}

/** Checks that a raw answer is a problem with this status, title and detail; gives its headers. */
function expectProblem(answer: string, status: number, title: string, detail: unknown) {
  const { statusLine, headers, body } = parse(answer);
  expect(statusLine).toBe(`HTTP/1.1 ${status} ${title}`);
  expect(headers['content-type']).toBe('application/problem+json');
  expect(body).toEqual({ type: 'about:blank', title, status, detail });
  return headers;
}

/** The log line of a request rejected before the app read it (it has no request id). */
function expectRejectionLogged({ logs }: TestApp, status: number, errorCode: string) {
  expect(logs).toContainEqual(
    expect.objectContaining({ status, errorCode, msg: 'request rejected before it was read' }),
  );
}

describe('a request Node rejects before the app reads it', () => {
  it('is a 431 problem when its URL and headers are too large, pointing to POST', async () => {
    const search = 'x'.repeat(20_000);
    expectProblem(
      await exchange(`GET /services?search=${search} HTTP/1.1\r\nHost: localhost\r\n\r\n`),
      431,
      'Request Header Fields Too Large',
      expect.stringMatching(/over 16 KB.*POST/),
    );
    expectRejectionLogged(app, 431, 'HPE_HEADER_OVERFLOW');
  });

  it('is a 400 problem when it is not HTTP', async () => {
    const { statusLine, headers, body } = parse(await exchange('HELLO /services\r\n\r\n'));
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(headers['content-type']).toBe('application/problem+json');
    expect(body).toMatchObject({ status: 400, detail: 'The request is not valid HTTP/1.1.' });
  });

  it('is a 417 problem when it expects what the server does not meet, naming it', async () => {
    expectProblem(
      await exchange('GET /services HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\n\r\n'),
      417,
      'Expectation Failed',
      'The Expect header asks for what this server does not do; only 100-continue is met.',
    );
  });

  it('leaves well-formed requests on the same server alone', async () => {
    const { statusLine } = parse(
      await exchange('GET /services/nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
    );
    expect(statusLine).toBe('HTTP/1.1 404 Not Found');
  });
});

describe('a request that does not arrive in time', () => {
  const expectTimedOut = (answer: string) => {
    const headers = expectProblem(answer, 408, 'Request Timeout', 'The request was not received in time.');
    expect(headers.connection).toBe('close');
  };

  it('is a 408 problem when its headers stop coming, and logged', async () => {
    const started = performance.now();
    expectTimedOut(await exchange('GET /services HTTP/1.1\r\nHost: localhost\r\n', impatient));
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expectRejectionLogged(impatient, 408, 'ERR_HTTP_REQUEST_TIMEOUT');
  });

  it('is a 408 problem when its body stops coming', async () => {
    const head = 'POST /services HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n';
    expectTimedOut(await exchange(`${head}Content-Length: 100\r\n\r\n{"per_page":`, impatient));
  });

  it('leaves a request received in time alone, by default for 300 s', async () => {
    const { statusLine } = parse(
      await exchange(
        'GET /services/nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        impatient,
      ),
    );
    expect(statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(app.server.requestTimeout).toBe(300_000);
  });
});
