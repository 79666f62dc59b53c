/**
 * `npm run bench:import [-- --count N] [-- --seed S]`: throughput and memory of the bulk import on
 * generated services (scripts/generator), streamed as NDJSON through the real reader into `importRecords`.
 * Each pass runs against a fresh stand-in with the app's indexes. Passes, in order:
 *
 *   - input alone: generating and reading the NDJSON without importing it (the ceiling this bench can show);
 *   - import of 20% of the count, then of the full count: memory must not grow with the input;
 *   - baseline: `insertMany` of the same documents into one collection (what the database alone takes).
 *
 * Prints a verdict against the targets but exits 0 whatever the timings (shared machines are noisy); it
 * fails only when the import errors or does not insert every service.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { Db, Document } from 'mongodb';
import pino from 'pino';
import { serviceNdjsonChunks } from '../scripts/generator/ndjson-chunks.ts';
import { Database } from '../src/db/database.ts';
import { importRecords } from '../src/ingest/import.ts';
import type { ImportReport } from '../src/ingest/report.ts';
import { readNdjson } from '../src/ingest/sources/ndjson.ts';
import { sampleMemoryPeaks, type MemoryPeaks } from './memory-peaks.ts';
import type { StandinProcessMessage } from './standin-process.ts';

const TARGET_SERVICES_PER_SECOND = 5_000;
/** Largest accepted growth of the importer's peak memory from the small pass to the full one. */
const TARGET_MEMORY_RATIO = 1.5;
const SMALL_PASS_FRACTION = 0.2;
const BASELINE_BATCH = 1_000;
const MiB = 1024 * 1024;

interface PassResult {
  label: string;
  services: number;
  seconds: number;
  importer: MemoryPeaks;
  /** Absent for the pass that uses no database. */
  standin?: MemoryPeaks;
}

interface StandinProcess {
  uri: string;
  /** Closes the stand-in, removes its data and gives the stand-in process's memory peaks. */
  stop(): Promise<MemoryPeaks>;
}

const generatedRecords = (count: number, seed: number) =>
  readNdjson(Readable.from(serviceNdjsonChunks(count, seed)), 'generated.ndjson');

async function startStandinProcess(): Promise<StandinProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-import-'));
  // Inherits this process's node options: the TypeScript loader, and --cpu-prof when profiling.
  const child = fork(new URL('./standin-process.ts', import.meta.url), [dataDir]);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The root cause of whatever failed meanwhile (typically out of memory: it holds every document).
  const died = () =>
    new Error(`the stand-in process died (${child.signalCode ?? `exit code ${child.exitCode}`})`);
  const nextMessage = () =>
    new Promise<StandinProcessMessage>((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', () => reject(died()));
    });
  const ready = await nextMessage();
  if (!('uri' in ready)) throw new Error(`stand-in process sent ${JSON.stringify(ready)} before its URI`);
  return {
    uri: ready.uri,
    async stop() {
      try {
        if (child.exitCode !== null || child.signalCode !== null) throw died();
        const stopped = nextMessage();
        // A send fails only when the child is gone, and then its exit rejects `stopped`.
        child.send('stop', () => {});
        const message = await stopped;
        await exited;
        if (!('peaks' in message))
          throw new Error(`stand-in process sent ${JSON.stringify(message)} on stopping`);
        return message.peaks;
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs `work` while sampling this process's memory. */
async function measure(work: () => Promise<void>): Promise<{ seconds: number; importer: MemoryPeaks }> {
  const memory = sampleMemoryPeaks();
  const started = performance.now();
  await work();
  return { seconds: (performance.now() - started) / 1000, importer: memory.stop() };
}

/** Runs `work` on a fresh, indexed database served by a new stand-in process. */
async function onFreshDatabase(
  label: string,
  services: number,
  work: (db: Db) => Promise<void>,
): Promise<PassResult> {
  const standin = await startStandinProcess();
  const database = new Database({
    uri: standin.uri,
    dbName: 'bench',
    timeoutMs: 30_000,
    logger: pino({ level: 'silent' }),
  });
  let measured: Awaited<ReturnType<typeof measure>>;
  let standinPeaks: MemoryPeaks;
  try {
    await database.ensureIndexes();
    measured = await measure(() => work(database.db));
  } finally {
    await database.close();
    standinPeaks = await standin.stop();
  }
  return { label, services, ...measured, standin: standinPeaks };
}

async function readInputOnly(count: number, seed: number): Promise<PassResult> {
  const measured = await measure(async () => {
    for await (const record of generatedRecords(count, seed)) {
      if (record.error !== undefined)
        throw new Error(`generated line ${record.source.line}: ${record.error}`);
    }
  });
  return { label: 'input alone (generate + readNdjson)', services: count, ...measured };
}

async function importPass(label: string, count: number, seed: number): Promise<[PassResult, ImportReport]> {
  let report: ImportReport | undefined;
  const result = await onFreshDatabase(label, count, async (db) => {
    report = await importRecords(db, generatedRecords(count, seed));
  });
  checkReport(report!, count);
  return [result, report!];
}

async function insertManyBaseline(count: number, seed: number): Promise<PassResult> {
  return onFreshDatabase('baseline: insertMany, one collection', count, async (db) => {
    // Only the unique id index: the database's cost of taking the documents, not of the app's indexes.
    const collection = db.collection('baseline_services');
    await collection.createIndex({ id: 1 }, { unique: true });
    let batch: Document[] = [];
    for await (const record of generatedRecords(count, seed)) {
      batch.push(record.value as Document);
      if (batch.length === BASELINE_BATCH) {
        await collection.insertMany(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await collection.insertMany(batch);
  });
}

/** Throws unless the import inserted every service and rejected nothing. */
function checkReport(report: ImportReport, count: number): void {
  if (report.rejected === 0 && report.inserted === count) return;
  const shown = report.rejections.slice(0, 5).map((rejection) => `  ${JSON.stringify(rejection)}`);
  throw new Error(
    [`import of ${count} services: ${report.inserted} inserted, ${report.rejected} rejected`, ...shown].join(
      '\n',
    ),
  );
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const mib = (bytes: number) => `${integer(bytes / MiB)} MiB`;
const peaks = (memory: MemoryPeaks | undefined) =>
  memory ? `${mib(memory.rssBytes).padStart(9)} ${mib(memory.heapUsedBytes).padStart(9)}` : ' '.repeat(19);
const rate = (pass: PassResult) => pass.services / pass.seconds;
const meets = (met: boolean) => (met ? 'met' : 'NOT met');

function printPass(pass: PassResult): void {
  console.log(
    `${pass.label.padEnd(38)} ${integer(pass.services).padStart(8)} ${pass.seconds.toFixed(2).padStart(8)} s` +
      ` ${integer(rate(pass)).padStart(8)}/s   ${peaks(pass.importer)}   ${peaks(pass.standin)}`,
  );
}

function positiveInteger(value: string, name: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1)
    throw new Error(`--${name} must be a positive integer, got ${value}`);
  return parsed;
}

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
  },
});
const count = positiveInteger(values.count, 'count');
const seed = positiveInteger(values.seed, 'seed');
const smallCount = Math.max(1, Math.round(count * SMALL_PASS_FRACTION));

console.log(
  `bench:import: ${integer(count)} generated services (seed ${seed}), node ${process.version}; ` +
    'each database pass on a fresh stand-in in its own process',
);
console.log(
  `${'pass'.padEnd(38)} ${'services'.padStart(8)} ${'time'.padStart(10)} ${'rate'.padStart(10)}` +
    `   importer peak RSS, heap   stand-in peak RSS, heap`,
);
const input = await readInputOnly(smallCount, seed);
printPass(input);
const [small] = await importPass(`import (${SMALL_PASS_FRACTION * 100}% of the count)`, smallCount, seed);
printPass(small);
const [full, report] = await importPass('import', count, seed);
printPass(full);
const baseline = await insertManyBaseline(count, seed);
printPass(baseline);

const written = Object.entries(report.documentsWritten).map(
  ([name, documents]) => `${name} ${integer(documents)}`,
);
console.log(`\nimport wrote documents: ${written.join(', ')}; ${report.warningCount} warnings`);
// Shortened: a database's message can quote the whole document.
if (report.warnings[0] !== undefined) console.log(`first warning: ${report.warnings[0].slice(0, 300)}…`);
const rateRatio = rate(full) / rate(baseline);
console.log(`import / baseline rate: ${rateRatio.toFixed(2)}`);
const rssRatio = full.importer.rssBytes / small.importer.rssBytes;
const heapRatio = full.importer.heapUsedBytes / small.importer.heapUsedBytes;
console.log(
  `importer peaks, ${integer(count)} vs ${integer(smallCount)} services: RSS ${rssRatio.toFixed(2)}×, ` +
    `heap ${heapRatio.toFixed(2)}×`,
);
const fastEnough = rate(full) >= TARGET_SERVICES_PER_SECOND;
const flat = rssRatio <= TARGET_MEMORY_RATIO && heapRatio <= TARGET_MEMORY_RATIO;
console.log(
  `verdict: rate ${integer(rate(full))}/s vs target ≥ ${integer(TARGET_SERVICES_PER_SECOND)}/s: ${meets(fastEnough)}; ` +
    `memory growth ≤ ${TARGET_MEMORY_RATIO}×: ${meets(flat)} (timings are informative: never a failure)`,
);
