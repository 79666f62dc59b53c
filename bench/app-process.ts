/**
 * The real app (`buildApp`) in a process of its own for bench/read.ts, over the stand-in whose URI is its
 * argument, listening on 127.0.0.1: its memory and CPU profile are then the app's alone. Besides serving,
 * it samples its memory on request: 'sample-memory' starts a window (answering the memory in use), and
 * 'memory-peaks' ends it (answering the peaks within).
 */
import { once } from 'node:events';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createHttpServer } from '../src/http/server.ts';
import { createLogger } from '../src/log.ts';
import { childOfBench } from './child-process.ts';
import { memoryUse, sampleMemoryPeaks, type MemoryUse } from './memory-peaks.ts';
import { benchDatabase } from './standin.ts';

export type AppRequest = 'sample-memory' | 'memory-peaks';

/** Finer than the default: an NDJSON stream of a small directory lasts a second or two. */
const WINDOW_SAMPLE_INTERVAL_MS = 50;

const uri = process.argv[2];
if (uri === undefined) throw new Error('bench/app-process.ts takes the URI of a stand-in');

const parent = childOfBench();
// Only the environment's defaults, whatever the shell running the bench has set.
const config = loadConfig({});
// Log lines are formatted as in production and then dropped: writing access logs is part of serving.
const logger = createLogger(config.logLevel, { write: () => {} });
const database = benchDatabase(uri);
await database.ensureIndexes();
const server = createHttpServer(buildApp({ config, database, logger }), logger, {
  requestTimeoutMs: config.requestTimeoutMs,
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const { port } = server.address() as { port: number };

let window: ReturnType<typeof sampleMemoryPeaks> | undefined;
parent.serve<AppRequest, MemoryUse>({
  address: `http://127.0.0.1:${port}`,
  async answer(request) {
    if (request === 'sample-memory') {
      window = sampleMemoryPeaks(WINDOW_SAMPLE_INTERVAL_MS);
      return memoryUse();
    }
    if (window === undefined) throw new Error('memory-peaks before sample-memory');
    const peaks = window.stop();
    window = undefined;
    return peaks;
  },
  async close() {
    const closed = new Promise((resolve) => server.close(resolve));
    // Keep-alive connections the bench left open would hold `close` (and this process) until they time out.
    server.closeAllConnections();
    await closed;
    await database.close();
  },
});
