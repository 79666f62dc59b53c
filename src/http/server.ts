import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { PROBLEM_CONTENT_TYPE } from './error-handler.ts';
import { HttpProblem, problemDocument } from './problem.ts';

/** Node's largest request line and headers, together (its default --max-http-header-size). */
const MAX_HEADER_KB = 16;

/** What Node's HTTP parser rejects before the app sees the request, as the problem we answer. */
function rejection(code: string | undefined): HttpProblem {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpProblem(
        431,
        `The request line and headers are over ${MAX_HEADER_KB} KB together. Long list parameters ` +
          'can be sent as a JSON object in the body of a POST to the same path.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpProblem(408, 'The request was not received in time.');
    default:
      return new HttpProblem(400, 'The request is not valid HTTP/1.1.');
  }
}

/** Node's time to receive a request's headers, unless the whole request must come sooner. */
const HEADERS_TIMEOUT_MS = 60_000;

/**
 * The HTTP server for the app. A request Node's parser rejects (malformed, headers too large, or not
 * received within `requestTimeoutMs`, body included) never reaches Koa, or is cut short, and Node would
 * answer it with a bare status line: it gets a problem details body like every other error instead, and a
 * log line (it has no request id: none was read).
 */
export function createHttpServer(
  app: Koa,
  logger: Logger,
  { requestTimeoutMs }: { requestTimeoutMs: number },
): Server {
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs),
      // Node checks the timeouts every 30 s by default: a shorter timeout needs a closer watch to mean much.
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, requestTimeoutMs / 4)),
    },
    app.callback(),
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A client gone, or a response already under way, has nothing more to be told.
    const response = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent === true) {
      socket.destroy();
      return;
    }
    const problem = rejection(error.code);
    logger.info({ status: problem.status, errorCode: error.code }, 'request rejected before it was read');
    const body = JSON.stringify(problemDocument(problem));
    socket.end(
      `HTTP/1.1 ${problem.status} ${problem.title}\r\n` +
        `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
  // An Expect other than 100-continue: Node would answer a bare 417 without reading further.
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const problem = new HttpProblem(
      417,
      'The Expect header asks for what this server does not do; only 100-continue is met.',
    );
    logger.info({ status: problem.status }, 'request rejected before it was read');
    const body = JSON.stringify(problemDocument(problem));
    response.writeHead(problem.status, {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    response.end(body);
  });
  return server;
}
