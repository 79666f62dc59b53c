/**
 * A small HTTP load client for the read bench: node:http with keep-alive (no load tool is installed), every
 * loop bounded in requests and seconds, every request in idle time. Requests carry no Accept-Encoding, so
 * the app and the bare server both send their bytes uncompressed.
 */
import { Agent, request } from 'node:http';

/**
 * A request whose socket stays silent this long fails (and with it the bench): nothing waits forever. Long,
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

export interface LoadOptions {
  origin: string;
  /** The path of each next request (a random one). */
  nextPath: () => string;
  concurrency: number;
  maxRequests: number;
  maxSeconds: number;
}

/** One run of a load: what was answered, and each request's latency. */
export interface LoadRun {
  requests: number;
  seconds: number;
  bytes: number;
  latenciesMs: number[];
}

/** Runs of one load together: totals and latency percentiles over all their requests. */
export interface LoadResult {
  requests: number;
  seconds: number;
  bytes: number;
  p50Ms: number;
  p99Ms: number;
}

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

/** Fetches every path from `origin` into memory, `concurrency` at a time. */
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

/** Reads the whole body of `path` on a connection of its own, counting its bytes. */
export async function streamBody(origin: string, path: string): Promise<StreamResult> {
  let bytes = 0;
  const started = performance.now();
  await get(new URL(path, origin), false, (chunk) => (bytes += chunk.length));
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

/**
 * Keeps `concurrency` requests in flight on as many keep-alive connections until `maxRequests` are sent
 * or `maxSeconds` have passed, and gives how many were answered, in how long, and each one's latency.
 */
export async function runLoad({
  origin,
  nextPath,
  concurrency,
  maxRequests,
  maxSeconds,
}: LoadOptions): Promise<LoadRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latenciesMs: number[] = [];
  let sent = 0;
  let bytes = 0;
  let failed = false;
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  const worker = async () => {
    while (!failed && sent < maxRequests && performance.now() < deadline) {
      sent += 1;
      const requested = performance.now();
      try {
        await get(new URL(nextPath(), origin), agent, (chunk) => (bytes += chunk.length));
      } catch (error) {
        // The other workers stop too rather than run on to their bounds.
        failed = true;
        throw error;
      }
      latenciesMs.push(performance.now() - requested);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return { requests: latenciesMs.length, seconds: (performance.now() - started) / 1000, bytes, latenciesMs };
}

/** Runs of one load (rounds of it between others) as one: their totals, and percentiles of all latencies. */
export function combineLoads(runs: readonly LoadRun[]): LoadResult {
  const sorted = Float64Array.from(runs.flatMap((run) => run.latenciesMs)).sort();
  // Nearest rank: the smallest latency that at least that fraction of the requests did not exceed.
  const percentile = (fraction: number) =>
    sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? NaN;
  const total = (field: 'requests' | 'seconds' | 'bytes') => runs.reduce((sum, run) => sum + run[field], 0);
  return {
    requests: total('requests'),
    seconds: total('seconds'),
    bytes: total('bytes'),
    p50Ms: percentile(0.5),
    p99Ms: percentile(0.99),
  };
}
