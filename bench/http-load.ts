/**
 * HTTP for the read bench: loads driven by autocannon (keep-alive connections, each request's path drawn
 * when it is sent, latencies in autocannon's histograms), and a node:http client for what is not a load:
 * fetching the responses the bare server replays, and reading a stream's body. Requests carry no
 * Accept-Encoding, so the app and the bare server both send their bytes uncompressed.
 */
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

/**
 * A fetch whose socket stays silent this long fails (and with it the bench): nothing waits forever. Long,
 * because a list page on the stand-in can queue behind a dozen others that each take a second or more.
 */
const IDLE_TIMEOUT_MS = 120_000;

export interface FetchedResponse {
  /**
   * The response's headers as sent (names and values in one flat list, as `rawHeaders`), but for those a
   * server sets per connection or per message (`Date`, `Connection`, `Keep-Alive`, framing).
   */
  headers: string[];
  body: Buffer;
}

/** Headers that belong to one connection or one message's framing rather than to the response. */
const PER_MESSAGE_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

export interface StreamResult {
  bytes: number;
  seconds: number;
}

/** GETs `url`, handing the body's chunks to `onChunk`; fails unless the status is 200. */
function get(url: URL, agent: Agent | false, onChunk: (chunk: Buffer) => void): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { agent, timeout: IDLE_TIMEOUT_MS }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`GET ${url.pathname}${url.search}: status ${response.statusCode}`));
        return;
      }
      response.on('data', onChunk);
      response.once('end', () => resolve(response.rawHeaders));
      response.once('error', reject);
    });
    sent.once('timeout', () =>
      sent.destroy(new Error(`GET ${url.pathname}${url.search}: no answer in time`)),
    );
    sent.once('error', reject);
    sent.end();
  });
}

/** Fetches every path from `origin` into memory, `concurrency` at a time; fails unless each is a 200. */
export async function fetchAll(
  origin: string,
  paths: readonly string[],
  concurrency: number,
): Promise<Map<string, FetchedResponse>> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const fetched = new Map<string, FetchedResponse>();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      const chunks: Buffer[] = [];
      const rawHeaders = await get(new URL(path, origin), agent, (chunk) => chunks.push(chunk));
      const headers: string[] = [];
      for (let i = 0; i < rawHeaders.length; i += 2)
        if (!PER_MESSAGE_HEADERS.has(rawHeaders[i]!.toLowerCase()))
          headers.push(rawHeaders[i]!, rawHeaders[i + 1]!);
      fetched.set(path, { headers, body: Buffer.concat(chunks) });
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return fetched;
}

/** The body of each path, parsed as JSON. */
export async function fetchJson<T>(origin: string, paths: readonly string[], concurrency: number) {
  const fetched = await fetchAll(origin, paths, concurrency);
  return paths.map((path) => JSON.parse(fetched.get(path)!.body.toString('utf8')) as T);
}

/** Reads the whole body of `path` on a connection of its own, counting its bytes. */
export async function streamBody(origin: string, path: string): Promise<StreamResult> {
  let bytes = 0;
  const started = performance.now();
  await get(new URL(path, origin), false, (chunk) => (bytes += chunk.length));
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

export interface LoadOptions {
  origin: string;
  /** The path of each next request, drawn as it is sent. */
  nextPath: () => string;
  connections: number;
  seconds: number;
  /** A request unanswered this long counts as a timeout (and an error), and its connection is opened again. */
  timeoutSeconds: number;
}

/**
 * One run of a load as autocannon gives it with `skipAggregateResult`: its counts, and its latency
 * histogram encoded, so that runs can be merged (`combineLoads`).
 */
export interface LoadRun {
  /** Responses received, whatever their status. */
  totalCompletedRequests: number;
  /** Requests sent, those left unanswered at the end of the run included. */
  totalRequests: number;
  /** Seconds, to the hundredth. */
  duration: number;
  /** Socket errors and timeouts. */
  errors: number;
  timeouts: number;
  non2xx: number;
  latencies: string;
}

/**
 * Runs of one load together: their totals, and latency percentiles over all their responses (in whole
 * milliseconds, as autocannon records them).
 */
export interface LoadResult {
  /** Responses received, whatever their status. */
  requests: number;
  /** Socket errors, timeouts excluded. */
  socketErrors: number;
  timeouts: number;
  non2xx: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** What autocannon exports besides its main function and @types/autocannon does not declare. */
const { aggregateResult } = autocannon as unknown as {
  aggregateResult(runs: readonly LoadRun[], options: autocannon.Options): autocannon.Result;
};

/**
 * Keeps `connections` keep-alive connections busy, one request in flight on each, for `seconds`, each
 * request's path drawn from `nextPath` as it is sent.
 */
export async function runLoad({
  origin,
  nextPath,
  connections,
  seconds,
  timeoutSeconds,
}: LoadOptions): Promise<LoadRun> {
  const run = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    timeout: timeoutSeconds,
    // Counts and encoded histograms, merged by combineLoads.
    skipAggregateResult: true,
    requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }],
  });
  return run as unknown as LoadRun;
}

export const requestRate = (run: LoadRun) => run.totalCompletedRequests / run.duration;

/** Runs of one load (rounds of it between others) as one: their totals, and percentiles of all latencies. */
export function combineLoads(runs: readonly LoadRun[], origin: string): LoadResult {
  const { latency } = aggregateResult(runs, { url: origin });
  const total = (field: 'totalCompletedRequests' | 'errors' | 'timeouts' | 'non2xx') =>
    runs.reduce((sum, run) => sum + run[field], 0);
  return {
    requests: total('totalCompletedRequests'),
    socketErrors: total('errors') - total('timeouts'),
    timeouts: total('timeouts'),
    non2xx: total('non2xx'),
    p50Ms: latency.p50,
    p99Ms: latency.p99,
    maxMs: latency.max,
  };
}
