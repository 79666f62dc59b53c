/**
 * `npm run bench [-- --count N] [-- --seed S] [-- --data-dir DIR] [-- --seconds T] [-- --concurrency C]`:
 * the read endpoints of the real app (`buildApp`, in a process of its own over a stand-in in another),
 * each against a bare node:http server (also in a process of its own) sending the very responses the app
 * sent for the same paths (body and headers, but `Date` and the connection's), from memory, in the same run:
 *
 *   - `GET /services/{id}` of random ids, and list pages `GET /services?per_page=50&page=N` of random N:
 *     requests per second and p50/p99 latency with C (default 16) keep-alive connections, after a short
 *     warm-up, in three runs on each server alternating between them, T seconds (default 15) on each in all,
 *     and bounded by a number of requests;
 *   - `GET /services?format=ndjson`, every service, then again with `full=true`: MB/s (10^6 bytes) and
 *     time of the median of three streams, and the app process's RSS and heap sampled during them against
 *     its RSS just before.
 *
 * The bare server first fetches from the app every path it will be asked for (every record, page and
 * stream): ten seconds or so.
 *
 * The directory is N generated services (scripts/generator, default 10,000), imported with `importRecords`
 * into a fresh stand-in at ~300 services/s: about half a minute. `--data-dir DIR` keeps the stand-in's data
 * in DIR: the first run imports into it, later runs find the services there and skip the import (--count is
 * then ignored). A default run takes about two minutes besides the import.
 *
 * Prints a verdict against the targets but exits 0 whatever the timings (shared machines are noisy); it
 * fails only when something errors. Profile with `node --cpu-prof --import tsx bench/read.ts`: each
 * process (bench, app, bare server, stand-in) writes its own profile.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Random } from '../scripts/generator/random.ts';
import { documentCollection } from '../src/db/collections.ts';
import { importRecords } from '../src/ingest/import.ts';
import type { AppRequest } from './app-process.ts';
import type { BarePriming, Primed } from './bare-process.ts';
import { forkChild, type ForkedChild } from './child-process.ts';
import { integer, meets, mib, positiveInteger } from './format.ts';
import { checkReport, generatedRecords } from './generated-services.ts';
import {
  combineLoads,
  fetchAll,
  runLoad,
  streamBody,
  type LoadResult,
  type LoadRun,
  type StreamResult,
} from './http-load.ts';
import type { MemoryPeaks, MemoryUse } from './memory-peaks.ts';
import { benchDatabase, startStandinProcess } from './standin.ts';

/** `GET /services/{id}` must reach this fraction of the bare server's requests per second. */
const TARGET_RECORD_RATIO = 0.5;
const TARGET_NDJSON_MB_PER_SECOND = 20;
/** Largest accepted peak RSS of the app during a stream, relative to its RSS just before that stream. */
const TARGET_MEMORY_RATIO = 1.5;
const PAGE_SIZE = 50;
/** Bounds each measured run besides --seconds, so that a very fast server still stops early. */
const MAX_REQUESTS = 500_000;
const WARMUP_REQUESTS = 2_000;
const WARMUP_SECONDS = 3;
/** Each load is measured in this many runs on each server, alternating: see compareLoads. */
const ROUNDS = 3;
/** Each stream is measured this many times, and its median run reported. */
const STREAM_RUNS = 3;
const MB = 1_000_000;
/** The stand-in answers one command at a time: more requests in flight would only queue there. */
const PRIMING_CONCURRENCY = 4;

type App = ForkedChild<AppRequest, MemoryUse>;
type Bare = ForkedChild<BarePriming, Primed>;

interface AppStream extends StreamResult {
  before: MemoryUse;
  peaks: MemoryPeaks;
}

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    'data-dir': { type: 'string' },
    seconds: { type: 'string', default: '15' },
    concurrency: { type: 'string', default: '16' },
  },
});
const count = positiveInteger(values.count, 'count');
const seed = positiveInteger(values.seed, 'seed');
const dataDir = values['data-dir'];
const seconds = positiveInteger(values.seconds, 'seconds');
const concurrency = positiveInteger(values.concurrency, 'concurrency');

/** The services in the stand-in: those already in a kept data directory, or `count` newly imported. */
async function prepareServices(uri: string): Promise<number> {
  const database = benchDatabase(uri);
  try {
    await database.ensureIndexes();
    const present = await database.db.collection(documentCollection.service).countDocuments();
    if (present > 0) {
      console.log(`reusing ${integer(present)} services already in ${dataDir} (--count ignored): no import`);
      return present;
    }
    const started = performance.now();
    const report = await importRecords(database.db, generatedRecords(count, seed), {
      // A progress line only on a terminal: the import takes minutes, and a log would fill with them.
      onProgress: (read) => {
        if (process.stderr.isTTY) process.stderr.write(`\rimporting: ${integer(read)} / ${integer(count)}`);
      },
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    checkReport(report, count);
    const took = (performance.now() - started) / 1000;
    console.log(
      `import: ${integer(count)} generated services (seed ${seed}) in ${took.toFixed(1)} s ` +
        `(${integer(count / took)}/s)${dataDir ? `, kept in ${dataDir}` : ''}`,
    );
    return count;
  } finally {
    await database.close();
  }
}

async function serviceIds(origin: string): Promise<string[]> {
  const path = '/services?minimal=true';
  const listing = (await fetchAll(origin, [path], 1)).get(path)!;
  return (JSON.parse(listing.body.toString('utf8')) as { id: string }[]).map((service) => service.id);
}

/** The same random sequence of `paths` for each server measured, so that both answer the same requests. */
function randomPaths(paths: readonly string[]): () => string {
  const random = new Random(seed);
  return () => random.pick(paths);
}

/**
 * The app's and the bare server's rates on the same random requests, in ROUNDS alternating runs of each
 * (after a warm-up of each), each first in turn: a drift in the machine's speed (another tenant, a
 * collection in the stand-in) then weighs on both alike, rather than on whichever ran while it lasted.
 */
async function compareLoads(
  servers: Record<'app' | 'bare', { address: string } & CpuMeter>,
  standin: CpuMeter,
  paths: readonly string[],
): Promise<ComparedLoads> {
  const run = (origin: string, maxRequests: number, maxSeconds: number) =>
    runLoad({ origin, concurrency, nextPath: randomPaths(paths), maxRequests, maxSeconds });
  const runs: { app: LoadRun[]; bare: LoadRun[] } = { app: [], bare: [] };
  const cpu = { app: emptyCpuSplit(), bare: emptyCpuSplit() };
  for (const server of ['app', 'bare'] as const)
    await run(servers[server].address, WARMUP_REQUESTS, WARMUP_SECONDS);
  for (let round = 0; round < ROUNDS; round++) {
    // Each first in turn: neither always runs just after the other.
    for (const server of round % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const)) {
      const meters = {
        server: servers[server],
        standin,
        client: { cpuUsage: async () => process.cpuUsage() },
      };
      const before = await cpuTimes(meters);
      runs[server].push(
        await run(servers[server].address, Math.ceil(MAX_REQUESTS / ROUNDS), seconds / ROUNDS),
      );
      const after = await cpuTimes(meters);
      for (const part of CPU_PARTS) cpu[server][part] += after[part] - before[part];
    }
  }
  const perRequest = (server: 'app' | 'bare') => {
    const requests = runs[server].reduce((sum, load) => sum + load.requests, 0);
    return Object.fromEntries(CPU_PARTS.map((part) => [part, cpu[server][part] / requests])) as CpuSplit;
  };
  return {
    app: combineLoads(runs.app),
    bare: combineLoads(runs.bare),
    roundRatios: runs.app.map((load, round) => requestRate(load) / requestRate(runs.bare[round]!)),
    cpuPerRequest: { app: perRequest('app'), bare: perRequest('bare') },
  };
}

/** Both servers' loads, the app's rate over the bare server's in each round (how much the machine moved), and where the CPU went. */
interface ComparedLoads {
  app: LoadResult;
  bare: LoadResult;
  roundRatios: number[];
  /** µs of CPU per request answered: the server measured, the stand-in, and this process (the load client). */
  cpuPerRequest: Record<'app' | 'bare', CpuSplit>;
}

interface CpuMeter {
  cpuUsage(): Promise<NodeJS.CpuUsage>;
}
const CPU_PARTS = ['server', 'standin', 'client'] as const;
type CpuSplit = Record<(typeof CPU_PARTS)[number], number>;
const emptyCpuSplit = (): CpuSplit => ({ server: 0, standin: 0, client: 0 });

/** The CPU time (user and system, µs) each process has used so far. */
async function cpuTimes(meters: Record<keyof CpuSplit, CpuMeter>): Promise<CpuSplit> {
  const split = emptyCpuSplit();
  for (const part of CPU_PARTS) {
    const { user, system } = await meters[part].cpuUsage();
    split[part] = user + system;
  }
  return split;
}

/**
 * The median by time of STREAM_RUNS streams of `path`: one stream lasts a second or less, at the mercy of
 * a pause (a garbage collection in the stand-in) that a longer load would average out.
 */
async function medianStream(origin: string, path: string): Promise<StreamResult> {
  const runs: StreamResult[] = [];
  for (let run = 0; run < STREAM_RUNS; run++) runs.push(await streamBody(origin, path));
  return runs.sort((a, b) => a.seconds - b.seconds)[Math.floor(STREAM_RUNS / 2)]!;
}

/** The app's median stream of `path`, with its memory peaks over all the runs. */
async function streamFromApp(app: App, path: string): Promise<AppStream> {
  const before = await app.ask('sample-memory');
  const stream = await medianStream(app.address, path);
  return { ...stream, before, peaks: await app.ask('memory-peaks') };
}

const requestRate = (load: { requests: number; seconds: number }) => load.requests / load.seconds;
const mbPerSecond = (transfer: { bytes: number; seconds: number }) => transfer.bytes / MB / transfer.seconds;
const ratio = (value: number) => `${value.toFixed(2)}×`;
const milliseconds = (value: number) => value.toFixed(1).padStart(8);

function printLoad(label: string, server: string, load: LoadResult): void {
  console.log(
    `${label.padEnd(34)} ${server.padEnd(5)} ${integer(load.requests).padStart(9)} ` +
      `${load.seconds.toFixed(1).padStart(6)} s ${integer(requestRate(load)).padStart(8)}/s ` +
      `${milliseconds(load.p50Ms)} ${milliseconds(load.p99Ms)} ${mbPerSecond(load).toFixed(1).padStart(8)}`,
  );
}

function printStream(path: string, server: string, stream: StreamResult, memory?: AppStream): void {
  const usage = memory
    ? `   ${mib(memory.before.rssBytes).padStart(9)} ${mib(memory.peaks.rssBytes).padStart(9)}` +
      ` ${mib(memory.before.heapUsedBytes).padStart(9)} ${mib(memory.peaks.heapUsedBytes).padStart(9)}`
    : '';
  console.log(
    `${path.padEnd(34)} ${server.padEnd(5)} ${(stream.bytes / MB).toFixed(1).padStart(9)} ` +
      `${stream.seconds.toFixed(2).padStart(6)} s ${mbPerSecond(stream).toFixed(1).padStart(8)}${usage}`,
  );
}

console.log(
  `bench: read endpoints vs a bare node:http server sending the same bytes; node ${process.version}; ` +
    `app, bare server and stand-in each in its own process`,
);
const standin = await startStandinProcess(dataDir);
let app: App | undefined;
let bare: Bare | undefined;
try {
  const services = await prepareServices(standin.uri);
  app = await forkChild<AppRequest, MemoryUse>(new URL('./app-process.ts', import.meta.url), [standin.uri]);
  const ids = await serviceIds(app.address);
  if (ids.length !== services) throw new Error(`the app lists ${ids.length} of ${services} services`);
  const recordPaths = ids.map((id) => `/services/${encodeURIComponent(id)}`);
  const pagePaths = Array.from(
    { length: Math.ceil(services / PAGE_SIZE) },
    (_, index) => `/services?per_page=${PAGE_SIZE}&page=${index + 1}`,
  );
  const streamPaths = ['/services?format=ndjson', '/services?format=ndjson&full=true'] as const;

  console.log(
    `\n${'stream'.padEnd(34)} ${'from'.padEnd(5)} ${'MB'.padStart(9)} ${'time'.padStart(8)} ` +
      `${'MB/s'.padStart(8)}   app RSS before, peak; heap before, peak`,
  );
  // First, on the app as it started: its RSS before them is then not already grown by the other runs.
  const appStreams: AppStream[] = [];
  for (const path of streamPaths) {
    const stream = await streamFromApp(app, path);
    appStreams.push(stream);
    printStream(path, 'app', stream, stream);
  }

  bare = await forkChild<BarePriming, Primed>(new URL('./bare-process.ts', import.meta.url), []);
  const primingStarted = performance.now();
  const primed = await bare.ask({
    origin: app.address,
    paths: [...recordPaths, ...pagePaths, ...streamPaths],
    concurrency: PRIMING_CONCURRENCY,
  });
  const bareStreams: StreamResult[] = [];
  for (const path of streamPaths) {
    const stream = await medianStream(bare.address, path);
    bareStreams.push(stream);
    printStream(path, 'bare', stream);
  }
  console.log(
    `(bare server primed with the app's ${integer(primed.responses)} responses, ${mib(primed.bytes)}, in ` +
      `${((performance.now() - primingStarted) / 1000).toFixed(1)} s)`,
  );

  console.log(
    `\n${'GET, random'.padEnd(34)} ${'from'.padEnd(5)} ${'requests'.padStart(9)} ${'time'.padStart(8)} ` +
      `${'rate'.padStart(10)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'MB/s'.padStart(8)}` +
      `   (${concurrency} connections)`,
  );
  const servers = { app, bare };
  const loads: Record<'record' | 'page', ComparedLoads> = {
    record: await compareLoads(servers, standin, recordPaths),
    page: await compareLoads(servers, standin, pagePaths),
  };
  const labels = {
    record: `/services/{id} of ${integer(ids.length)}`,
    page: `/services?per_page=${PAGE_SIZE}&page=N`,
  };
  for (const kind of ['record', 'page'] as const) {
    printLoad(labels[kind], 'app', loads[kind].app);
    printLoad(labels[kind], 'bare', loads[kind].bare);
  }

  const recordRatio = requestRate(loads.record.app) / requestRate(loads.record.bare);
  const pageRatio = requestRate(loads.page.app) / requestRate(loads.page.bare);
  const [plainStream, fullStream] = appStreams as [AppStream, AppStream];
  const [plainBare, fullBare] = bareStreams as [StreamResult, StreamResult];
  console.log(
    `\napp / bare rate: GET /services/{id} ${ratio(recordRatio)}, list page ${ratio(pageRatio)}, ` +
      `ndjson ${ratio(mbPerSecond(plainStream) / mbPerSecond(plainBare))}, ` +
      `ndjson full=true ${ratio(mbPerSecond(fullStream) / mbPerSecond(fullBare))}; by round: ` +
      `GET /services/{id} ${loads.record.roundRatios.map(ratio).join(' ')}, ` +
      `list page ${loads.page.roundRatios.map(ratio).join(' ')}`,
  );
  const { app: appCpu, bare: bareCpu } = loads.record.cpuPerRequest;
  const us = (value: number) => `${Math.round(value)} µs`;
  console.log(
    `CPU per GET /services/{id}: app ${us(appCpu.server)}, its stand-in ${us(appCpu.standin)}, load client ` +
      `${us(appCpu.client)}; bare server ${us(bareCpu.server)}, load client ${us(bareCpu.client)} ` +
      `(on ${os.availableParallelism()} cores)`,
  );
  const rssGrowth = appStreams.map((stream) => stream.peaks.rssBytes / stream.before.rssBytes);
  // Memory that grew with the data would show in the stream of full records, several times the bytes.
  console.log(
    `app peak RSS over its RSS before each stream: ndjson ${ratio(rssGrowth[0]!)}, full=true ` +
      `${ratio(rssGrowth[1]!)}; peak of full=true over peak of ndjson ` +
      `${ratio(fullStream.peaks.rssBytes / plainStream.peaks.rssBytes)} for ` +
      `${ratio(fullStream.bytes / plainStream.bytes)} the bytes`,
  );
  const slowestStream = Math.min(...appStreams.map(mbPerSecond));
  const flat = rssGrowth.every((growth) => growth <= TARGET_MEMORY_RATIO);
  console.log(
    `verdict: GET /services/{id} at ${(recordRatio * 100).toFixed(0)}% of the bare server vs target ≥ ` +
      `${TARGET_RECORD_RATIO * 100}%: ${meets(recordRatio >= TARGET_RECORD_RATIO)}; ndjson ` +
      `${slowestStream.toFixed(1)} MB/s (slower stream) vs target ≥ ${TARGET_NDJSON_MB_PER_SECOND} MB/s: ` +
      `${meets(slowestStream >= TARGET_NDJSON_MB_PER_SECOND)}; memory flat (peak RSS ≤ ${TARGET_MEMORY_RATIO}× ` +
      `before): ${meets(flat)} (timings are informative: never a failure)`,
  );
} finally {
  const appPeaks = await app?.stop();
  const barePeaks = await bare?.stop();
  const standinPeaks = await standin.stop();
  const shown = (name: string, peaks: MemoryPeaks | undefined) =>
    peaks ? [`${name} ${mib(peaks.rssBytes)} RSS, ${mib(peaks.heapUsedBytes)} heap`] : [];
  console.log(
    `process peaks: ${[...shown('app', appPeaks), ...shown('bare', barePeaks), ...shown('stand-in', standinPeaks)].join('; ')}`,
  );
}
