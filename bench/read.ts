/**
 * `npm run bench [-- --count N] [-- --seed S] [-- --data-dir DIR] [-- --seconds T] [-- --concurrency C]
 * [-- --streams] [-- --load TEXT ...]`:
 * the read endpoints of the real app (`buildApp`, in a process of its own over a stand-in in another),
 * each against a bare node:http server (also in a process of its own) sending the very responses the app
 * sent for the same paths (body and headers, but `Date` and the connection's), from memory, in the same run.
 * The load is driven by autocannon (bench/http-load.ts), in this process, each request's path drawn as it
 * is sent. The loads (issue #19), with C (default 32) keep-alive connections unless said otherwise:
 *
 *   - `GET /services/{id}` of random ids;
 *   - list pages of 50, early and deep: `/services?per_page=50&page=7` and `page=180` (at 90% of the
 *     pages: 180 of 200 for 10,000 services), and the same filtered by `taxonomy_term_id`, each request
 *     with one of the terms that classify at least 20 pages of services, at its page 7 and at 90% of its
 *     pages;
 *   - `GET /service_at_locations?postcode=P&proximity=R&per_page=50`, P one of 12 of the generated
 *     cities' postcodes and R one of 1, 5 and 20 km, both random per request;
 *   - queries no cache has seen: list pages `/services?per_page=50&page=N&modified_after=T` (T random to
 *     the millisecond, N random among the pages its services fill) and proximity searches (any of the
 *     cities' postcodes, radius random to the metre up to 20 km), every request different. The bare server
 *     is primed with the first 40 of each (fetched once from the app); the app is then asked only paths
 *     drawn after those, each once (its warm-up included), that it has never served;
 *   - the same proximity searches of what is open at the time of the request (`&open_now=true`, issue
 *     #23), unseen alike;
 *   - random list pages `/services?per_page=50&page=N` on 200 connections: timeouts (no answer within
 *     10 s), errors and latencies.
 *
 * Each load runs for a short warm-up on each server, then in three rounds on each, alternating between
 * them, T seconds (default 15) on each in all; both servers answer the same random sequence of paths but
 * for the unseen queries. autocannon ends a run with requests in flight: before the next run the bench
 * waits until the server and the stand-in are idle again (up to half a minute for 32 proximity searches
 * on the stand-in). It reports requests per second (median of the rounds, and their range), the
 * app's rate over the bare server's, p50/p99/max latency over the rounds (autocannon's histograms, whole
 * milliseconds), errors (non-2xx responses, socket errors, timeouts), the CPU time each process spent per
 * request sent, and a verdict against each target. Then, not under load, `GET /services?format=ndjson`
 * of every service and again with `full=true`: MB/s (10^6 bytes) and time of the median of three streams
 * (after one not measured) read by a single client, and the app process's RSS and heap sampled during
 * them against its RSS just before. `--streams` measures the streams alone (a minute or two, besides the import);
 * `--load TEXT` (repeatable) runs only the loads whose label contains TEXT (e.g. `--load {id}`), besides the
 * streams.
 *
 * The bare server first fetches from the app every path it will be asked for (every record, page, filtered
 * page, proximity search and stream, and the primed unseen queries): half a minute or so, most of it the
 * proximity searches (seconds each on the stand-in). The app keeps what it answers then (its default
 * HSDS_RESPONSE_CACHE_MB), as a server in service keeps its popular pages; the unseen loads are what no
 * kept answer serves.
 *
 * The directory is N generated services (scripts/generator, default 10,000), imported with `importRecords`
 * into a fresh stand-in at ~150 services/s on a 2-core machine: about a minute. `--data-dir DIR` keeps the
 * stand-in's data in DIR: the first run imports into it, later runs find the services there and skip the
 * import (--count is then ignored). A default run takes about 6 minutes besides the import, much of it
 * waiting for the unseen queries left in flight.
 *
 * Prints a verdict against the targets but exits 0 whatever the timings and errors under load (shared
 * machines are noisy); it fails only when the bench itself does (a fetch while priming that is not a 200,
 * the bare server asked a path it was not primed with, a process dying). Profile with
 * `node --cpu-prof --import tsx bench/read.ts`: each process (bench, app, bare server, stand-in) writes its
 * own profile.
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { documentCollection } from '../src/db/collections.ts';
import { importRecords } from '../src/ingest/import.ts';
import type { AppRequest } from './app-process.ts';
import type { BarePriming, Primed } from './bare-process.ts';
import { forkChild, type ForkedChild } from './child-process.ts';
import { integer, meets, mib, positiveInteger } from './format.ts';
import { checkReport, generatedRecords } from './generated-services.ts';
import {
  combineLoads,
  requestRate,
  runLoad,
  streamBody,
  type LoadResult,
  type LoadRun,
  type StreamResult,
} from './http-load.ts';
import type { MemoryPeaks, MemoryUse } from './memory-peaks.ts';
import {
  deepPage,
  EARLY_PAGE,
  earlyPage,
  filteredPages,
  knownPostcodes,
  modifiedPageDraw,
  openNowDraw,
  PAGE_SIZE,
  PROXIMITY_RADII,
  proximityDraw,
  proximityPaths,
  randomPaths,
  serviceListing,
  servicesPage,
  unseenPaths,
  type PathDraw,
} from './read-paths.ts';
import { benchDatabase, startStandinProcess } from './standin.ts';
import { formatTable } from './table.ts';

/** Issue #19: list items, and full records (`full=true`), streamed as NDJSON. */
const TARGET_NDJSON_MB_PER_SECOND = { items: 100, full: 200 } as const;
/** Largest accepted peak RSS of the app during a stream, relative to its RSS just before that stream. */
const TARGET_MEMORY_RATIO = 1.5;
/** The connections of the load that must not time out nor fail. */
const MANY_CONNECTIONS = 200;
/** A request unanswered this long is a timeout (autocannon's default). */
const TIMEOUT_SECONDS = 10;
const WARMUP_SECONDS = 2;
/** Each load is measured in this many runs on each server, alternating: see compareLoads. */
const ROUNDS = 3;
/**
 * How many paths of each unseen distribution prime the bare server (and are never asked of the app under
 * load): enough for the sizes of its responses, few because each costs the stand-in up to seconds.
 */
const UNSEEN_PRIMED = 40;
/** Each stream is measured this many times, and its median run reported. */
const STREAM_RUNS = 3;
const MB = 1_000_000;
/** The stand-in answers one command at a time: more requests in flight would only queue there. */
const PRIMING_CONCURRENCY = 4;
/** After a run, the servers are idle again (see settle) once they use less CPU than this per SETTLE_INTERVAL_MS. */
const SETTLE_CPU_MS = 10;
const SETTLE_INTERVAL_MS = 100;
/** Slow queries left in flight by 32 connections can keep the stand-in busy for a minute or more. */
const SETTLE_MAX_MS = 300_000;

type App = ForkedChild<AppRequest, MemoryUse>;
type Bare = ForkedChild<BarePriming, Primed>;
const SERVERS = ['app', 'bare'] as const;
type Server = (typeof SERVERS)[number];

interface AppStream extends StreamResult {
  before: MemoryUse;
  peaks: MemoryPeaks;
}

/** What a load must reach; every load must also answer every request with a 2xx, with no timeout. */
interface Target {
  /** The app's rate over the bare server's. */
  ratio?: number;
  p99Ms?: number;
}

interface Load {
  label: string;
  connections: number;
  /** The paths of a run on `server`. */
  paths(server: Server): () => string;
  /** The paths the bare server must have been primed with. */
  primed: readonly string[];
  target: Target;
}

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    'data-dir': { type: 'string' },
    seconds: { type: 'string', default: '15' },
    concurrency: { type: 'string', default: '32' },
    streams: { type: 'boolean', default: false },
    load: { type: 'string', multiple: true },
  },
});
const count = positiveInteger(values.count, 'count');
const seed = positiveInteger(values.seed, 'seed');
const dataDir = values['data-dir'];
const seconds = positiveInteger(values.seconds, 'seconds');
const concurrency = positiveInteger(values.concurrency, 'concurrency');
if (values.streams && values.load) throw new Error('--load with --streams: --streams runs no load');

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

/** The loads whose label contains one of `wanted` (all when none is given); none at all is an error. */
function chosenLoads<T extends { label: string }>(all: T[], wanted: string[] | undefined): T[] {
  if (wanted === undefined) return all;
  const chosen = all.filter((load) => wanted.some((text) => load.label.includes(text)));
  if (chosen.length === 0)
    throw new Error(
      `--load ${wanted.join(', ')}: no load's label contains it; the loads:\n${all.map((load) => load.label).join('\n')}`,
    );
  return chosen;
}

/** A load of random paths from a fixed set: each run on either server asks the same random sequence. */
const repeatedLoad = (
  label: string,
  paths: readonly string[],
  target: Target,
  connections = concurrency,
) => ({
  label,
  connections,
  paths: () => randomPaths(paths, seed),
  primed: paths,
  target,
});

/**
 * A load of paths that no server was asked before: the bare server is primed with the first UNSEEN_PRIMED
 * of `draw`'s paths and asked those again at random, the app only ever asked the ones drawn after those,
 * each once (its warm-up included), so that no response cache could answer them.
 */
function unseenLoad(label: string, draw: PathDraw, drawSeed: number, target: Target): Load {
  const next = unseenPaths(draw, drawSeed);
  const primed = Array.from({ length: UNSEEN_PRIMED }, next);
  return {
    label,
    connections: concurrency,
    paths: (server) => (server === 'app' ? next : randomPaths(primed, seed)),
    primed,
    target,
  };
}

interface CpuMeter {
  cpuUsage(): Promise<NodeJS.CpuUsage>;
}
const CPU_PARTS = ['server', 'standin', 'client'] as const;
type CpuSplit = Record<(typeof CPU_PARTS)[number], number>;
const emptyCpuSplit = (): CpuSplit => ({ server: 0, standin: 0, client: 0 });
const clientMeter: CpuMeter = { cpuUsage: async () => process.cpuUsage() };

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
 * Waits until `meters` are idle, up to SETTLE_MAX_MS (giving false if they are not by then). autocannon ends
 * a run with requests still in flight, which the server (and the stand-in) go on working at: the next run
 * must not start while they do.
 */
async function settle(meters: readonly CpuMeter[]): Promise<boolean> {
  const used = async () => {
    let total = 0;
    for (const meter of meters) {
      const { user, system } = await meter.cpuUsage();
      total += user + system;
    }
    return total;
  };
  const deadline = performance.now() + SETTLE_MAX_MS;
  let before = await used();
  while (performance.now() < deadline) {
    await sleep(SETTLE_INTERVAL_MS);
    const now = await used();
    if (now - before < SETTLE_CPU_MS * 1000) return true;
    before = now;
  }
  return false;
}

/** Both servers' loads, each one's rate in each round, and where the CPU went. */
interface ComparedLoads {
  app: LoadResult;
  bare: LoadResult;
  rates: Record<Server, number[]>;
  /**
   * µs of CPU per request sent (each served in full, those left in flight at the end of a run included):
   * the server measured, the stand-in, and this process (the load client).
   */
  cpuPerRequest: Record<Server, CpuSplit>;
  /** How long the servers took to finish the requests left in flight after each run. */
  settlingSeconds: number;
}

/**
 * The app's and the bare server's rates on `load`, in ROUNDS alternating runs of each (after a warm-up of
 * each), each first in turn: a drift in the machine's speed (another tenant, a collection in the stand-in)
 * then weighs on both alike, rather than on whichever ran while it lasted.
 */
async function compareLoads(
  servers: Record<Server, { address: string } & CpuMeter>,
  standin: CpuMeter,
  load: Load,
): Promise<ComparedLoads> {
  const run = async (server: Server, runSeconds: number) => {
    const result = await runLoad({
      origin: servers[server].address,
      nextPath: load.paths(server),
      connections: load.connections,
      seconds: runSeconds,
      timeoutSeconds: TIMEOUT_SECONDS,
    });
    if (server === 'bare' && result.non2xx > 0)
      throw new Error(`${load.label}: the bare server answered ${result.non2xx} requests with no 2xx`);
    return result;
  };
  const idle = async (server: Server) => {
    const started = performance.now();
    if (!(await settle([servers[server], standin])))
      console.log(`  (${load.label}: the ${server} was still busy ${SETTLE_MAX_MS / 1000} s after a run)`);
    settling += performance.now() - started;
  };
  const runs: Record<Server, LoadRun[]> = { app: [], bare: [] };
  const cpu = { app: emptyCpuSplit(), bare: emptyCpuSplit() };
  let settling = 0;
  for (const server of SERVERS) {
    await run(server, WARMUP_SECONDS);
    await idle(server);
  }
  for (let round = 0; round < ROUNDS; round++) {
    // Each first in turn: neither always runs just after the other.
    for (const server of round % 2 === 0 ? SERVERS : ([...SERVERS].reverse() as Server[])) {
      const meters = { server: servers[server], standin, client: clientMeter };
      const before = await cpuTimes(meters);
      runs[server].push(await run(server, seconds / ROUNDS));
      // The requests left in flight are served in full: their CPU is the run's too.
      await idle(server);
      const after = await cpuTimes(meters);
      for (const part of CPU_PARTS) cpu[server][part] += after[part] - before[part];
    }
  }
  const perRequest = (server: Server) => {
    const requests = runs[server].reduce((sum, run) => sum + run.totalRequests, 0);
    return Object.fromEntries(CPU_PARTS.map((part) => [part, cpu[server][part] / requests])) as CpuSplit;
  };
  return {
    app: combineLoads(runs.app, servers.app.address),
    bare: combineLoads(runs.bare, servers.bare.address),
    rates: { app: runs.app.map(requestRate), bare: runs.bare.map(requestRate) },
    cpuPerRequest: { app: perRequest('app'), bare: perRequest('bare') },
    settlingSeconds: settling / 1000,
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const range = (values: readonly number[], format: (value: number) => string) =>
  `${format(Math.min(...values))}–${format(Math.max(...values))}`;
const percent = (value: number) => `${Math.round(value * 100)}%`;
/** Rates to a tenth under 10/s: the slowest loads answer a few requests a second. */
const rate = (value: number) => (value < 10 ? value.toFixed(1) : integer(value));
const ms = (value: number) => (value < 1 ? '<1' : integer(value));
const latencies = (load: LoadResult) =>
  load.requests === 0 ? '–' : `${ms(load.p50Ms)} / ${ms(load.p99Ms)} / ${ms(load.maxMs)}`;
const failures = (load: LoadResult) => `${load.non2xx} / ${load.socketErrors} / ${load.timeouts}`;
const clean = (load: LoadResult) => load.non2xx + load.socketErrors + load.timeouts === 0;

function targetText({ ratio, p99Ms }: Target): string {
  return [
    ...(ratio === undefined ? [] : [`≥ ${percent(ratio)}`]),
    ...(p99Ms === undefined ? [] : [`p99 ≤ ${integer(p99Ms)} ms`]),
    'no errors',
  ].join(', ');
}

/** The app's median rate over the bare server's. */
const rateRatio = (compared: ComparedLoads) => median(compared.rates.app) / median(compared.rates.bare);

function met(load: Load, compared: ComparedLoads): boolean {
  const { ratio, p99Ms } = load.target;
  return (
    clean(compared.app) &&
    (ratio === undefined || rateRatio(compared) >= ratio) &&
    (p99Ms === undefined || compared.app.p99Ms <= p99Ms)
  );
}

/**
 * The median by time of STREAM_RUNS streams of `path`, after one not measured: one stream lasts a second
 * or less, at the mercy of a pause (a garbage collection in the stand-in) that a longer load would average
 * out, and the first, with code not yet optimized on any side, runs up to half again as long.
 */
async function medianStream(origin: string, path: string): Promise<StreamResult> {
  await streamBody(origin, path);
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

const mbPerSecond = (transfer: { bytes: number; seconds: number }) => transfer.bytes / MB / transfer.seconds;
const ratio = (value: number) => `${value.toFixed(2)}×`;

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

const benchStarted = performance.now();
console.log(
  `bench: read endpoints vs a bare node:http server sending the same bytes; node ${process.version}; ` +
    `load by autocannon in the bench's process; app, bare server and stand-in each in its own process ` +
    `(${os.availableParallelism()} cores)`,
);
const standin = await startStandinProcess(dataDir);
let app: App | undefined;
let bare: Bare | undefined;
try {
  const services = await prepareServices(standin.uri);
  app = await forkChild<AppRequest, MemoryUse>(new URL('./app-process.ts', import.meta.url), [standin.uri]);
  const listing = await serviceListing(app.address);
  if (listing.ids.length !== services)
    throw new Error(`the app lists ${listing.ids.length} of ${services} services`);
  const pages = Math.ceil(services / PAGE_SIZE);
  const filtered = await filteredPages(app.address);
  const postcodes = knownPostcodes();
  const early = earlyPage(pages);
  const deep = deepPage(pages);
  const list = { ratio: 0.3, p99Ms: 100 };
  const unseen = { ratio: 0.2, p99Ms: 200 };
  const proximity = proximityPaths(postcodes, seed);
  const allLoads: Load[] = [
    repeatedLoad(
      `GET /services/{id} (random of ${integer(services)})`,
      listing.ids.map((id) => `/services/${encodeURIComponent(id)}`),
      { ratio: 0.5 },
    ),
    repeatedLoad(`/services?per_page=${PAGE_SIZE}&page=${early}`, [servicesPage({ page: early })], list),
    repeatedLoad(`/services?per_page=${PAGE_SIZE}&page=${deep}`, [servicesPage({ page: deep })], list),
    repeatedLoad(`  &taxonomy_term_id=T, page ${EARLY_PAGE} (${filtered.terms} terms)`, filtered.early, list),
    repeatedLoad(`  &taxonomy_term_id=T, page at 90% (${filtered.terms} terms)`, filtered.deep, list),
    repeatedLoad(
      `/service_at_locations?postcode&proximity (${proximity.length / PROXIMITY_RADII.length} × ` +
        `${PROXIMITY_RADII.length})`,
      proximity,
      { ratio: 0.2 },
    ),
    unseenLoad(
      `unseen: /services?page=N&modified_after=T`,
      modifiedPageDraw(listing.modifiedMs),
      seed + 1,
      unseen,
    ),
    unseenLoad(
      `unseen: /service_at_locations?postcode&proximity`,
      proximityDraw(postcodes),
      seed + 2,
      unseen,
    ),
    unseenLoad(`unseen: the same, &open_now=true`, openNowDraw(postcodes), seed + 3, unseen),
    repeatedLoad(
      `/services?per_page=${PAGE_SIZE}&page=N (random of ${pages})`,
      Array.from({ length: pages }, (_, index) => servicesPage({ page: index + 1 })),
      { p99Ms: 1000 },
      MANY_CONNECTIONS,
    ),
  ];
  const loads = values.streams ? [] : chosenLoads(allLoads, values.load);
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
    paths: [...new Set([...loads.flatMap((load) => load.primed), ...streamPaths])],
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

  const compared: ComparedLoads[] = [];
  if (loads.length > 0) {
    console.log(
      `\nloads: ${WARMUP_SECONDS} s of warm-up on each server, then ${ROUNDS} rounds of ` +
        `${(seconds / ROUNDS).toFixed(1)} s on each, alternating; app and bare req/s by round:`,
    );
    const servers = { app, bare };
    for (const load of loads) {
      const result = await compareLoads(servers, standin, load);
      compared.push(result);
      const rounds = (server: Server) => result.rates[server].map(rate).join(' ');
      console.log(
        `  ${load.label} (${load.connections}): app ${rounds('app')}; bare ${rounds('bare')}` +
          (result.settlingSeconds >= 1
            ? ` (${result.settlingSeconds.toFixed(0)} s waiting for requests left in flight)`
            : ''),
      );
    }

    console.log(
      `\nsummary: req/s are medians of ${ROUNDS} rounds (range); latencies over all rounds, p50 / p99 / max ms; ` +
        `errors are non-2xx / socket errors / timeouts (> ${TIMEOUT_SECONDS} s)\n`,
    );
    console.log(
      formatTable(
        [
          { title: 'load' },
          { title: 'conns', align: 'right' },
          { title: 'app req/s', align: 'right' },
          { title: '(range)', align: 'right' },
          { title: 'bare req/s', align: 'right' },
          { title: '(range)', align: 'right' },
          { title: 'app/bare', align: 'right' },
          { title: '(rounds)', align: 'right' },
          { title: 'app ms', align: 'right' },
          { title: 'bare ms', align: 'right' },
          { title: 'app errors', align: 'right' },
          { title: 'bare errors', align: 'right' },
          { title: 'target' },
          { title: 'verdict' },
        ],
        loads.map((load, index) => {
          const result = compared[index]!;
          const roundRatios = result.rates.app.map((rate, round) => rate / result.rates.bare[round]!);
          return [
            load.label,
            String(load.connections),
            rate(median(result.rates.app)),
            range(result.rates.app, rate),
            rate(median(result.rates.bare)),
            range(result.rates.bare, rate),
            percent(rateRatio(result)),
            range(roundRatios, percent),
            latencies(result.app),
            latencies(result.bare),
            failures(result.app),
            failures(result.bare),
            targetText(load.target),
            meets(met(load, result)),
          ];
        }),
      ),
    );

    console.log(
      `\nCPU per request sent (µs, requests left in flight at the end of a run included; the client is ` +
        `autocannon in the bench's process, on ` +
        `${os.availableParallelism()} cores)\n`,
    );
    const us = (value: number) => (Number.isFinite(value) ? integer(value) : '–');
    console.log(
      formatTable(
        [
          { title: 'load' },
          { title: 'app', align: 'right' },
          { title: 'its stand-in', align: 'right' },
          { title: 'client on app', align: 'right' },
          { title: 'bare', align: 'right' },
          { title: 'client on bare', align: 'right' },
        ],
        loads.map((load, index) => {
          const { app: appCpu, bare: bareCpu } = compared[index]!.cpuPerRequest;
          return [
            load.label,
            us(appCpu.server),
            us(appCpu.standin),
            us(appCpu.client),
            us(bareCpu.server),
            us(bareCpu.client),
          ];
        }),
      ),
    );
  }

  const [plainStream, fullStream] = appStreams as [AppStream, AppStream];
  const [plainBare, fullBare] = bareStreams as [StreamResult, StreamResult];
  const rssGrowth = appStreams.map((stream) => stream.peaks.rssBytes / stream.before.rssBytes);
  console.log(
    `\nstreams (one client): ndjson ${mbPerSecond(plainStream).toFixed(1)} MB/s ` +
      `(${ratio(mbPerSecond(plainStream) / mbPerSecond(plainBare))} bare), full=true ` +
      `${mbPerSecond(fullStream).toFixed(1)} MB/s (${ratio(mbPerSecond(fullStream) / mbPerSecond(fullBare))} bare)`,
  );
  // Memory that grew with the data would show in the stream of full records, several times the bytes.
  console.log(
    `app peak RSS over its RSS before each stream: ndjson ${ratio(rssGrowth[0]!)}, full=true ` +
      `${ratio(rssGrowth[1]!)}; peak of full=true over peak of ndjson ` +
      `${ratio(fullStream.peaks.rssBytes / plainStream.peaks.rssBytes)} for ` +
      `${ratio(fullStream.bytes / plainStream.bytes)} the bytes`,
  );
  const flat = rssGrowth.every((growth) => growth <= TARGET_MEMORY_RATIO);
  const loadsMet = loads.filter((load, index) => met(load, compared[index]!)).length;
  const streamVerdict = (stream: AppStream, target: number) =>
    `${mbPerSecond(stream).toFixed(1)} MB/s vs target ≥ ${target} MB/s: ${meets(mbPerSecond(stream) >= target)}`;
  console.log(
    `verdict: loads ${loadsMet} of ${loads.length} targets met; ndjson ` +
      `${streamVerdict(plainStream, TARGET_NDJSON_MB_PER_SECOND.items)}, full=true ` +
      `${streamVerdict(fullStream, TARGET_NDJSON_MB_PER_SECOND.full)}; memory flat (peak RSS ≤ ` +
      `${TARGET_MEMORY_RATIO}× before): ${meets(flat)} (timings are informative: never a failure)`,
  );
} finally {
  const appPeaks = await app?.stop();
  const barePeaks = await bare?.stop();
  const standinPeaks = await standin.stop();
  const shown = (name: string, peaks: MemoryPeaks | undefined) =>
    peaks ? [`${name} ${mib(peaks.rssBytes)} RSS, ${mib(peaks.heapUsedBytes)} heap`] : [];
  console.log(
    `process peaks: ${[...shown('app', appPeaks), ...shown('bare', barePeaks), ...shown('stand-in', standinPeaks)].join('; ')}` +
      `; the bench took ${((performance.now() - benchStarted) / 60_000).toFixed(1)} min`,
  );
}
