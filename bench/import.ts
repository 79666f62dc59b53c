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
 * fails only when the import errors or does not insert every service. It prints the stand-in's memory per
 * service (issue #17's target: ≤ 40 KiB at 20,000 services).
 */
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Db, Document } from 'mongodb';
import { importRecords } from '../src/ingest/import.ts';
import type { ImportReport } from '../src/ingest/report.ts';
import { integer, meets, mib, positiveInteger } from './format.ts';
import { checkReport, generatedRecords } from './generated-services.ts';
import { sampleMemoryPeaks, type MemoryPeaks } from './memory-peaks.ts';
import { benchDatabase, startStandinProcess } from './standin.ts';

const TARGET_SERVICES_PER_SECOND = 5_000;
/** The embedded database's resident memory per stored service (issue #17). */
const TARGET_STANDIN_KIB_PER_SERVICE = 40;
/** Largest accepted growth of the importer's peak RSS and retained heap from the small pass to the full one. */
const TARGET_MEMORY_RATIO = 1.5;
const SMALL_PASS_FRACTION = 0.2;
const BASELINE_BATCH = 1_000;
/** A full GC every this many batches of an import pass measures the heap it retains. */
const RETAINED_SAMPLE_BATCHES = 10;

// The heap a process retains shows only after a full collection; the peak heap includes garbage not yet
// collected, which grows with the heap V8 allows itself, not with what the importer holds.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const retainedHeap = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

interface PassResult {
  label: string;
  services: number;
  seconds: number;
  importer: MemoryPeaks;
  /** Absent for the pass that uses no database. */
  standin?: MemoryPeaks;
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
  const database = benchDatabase(standin.uri);
  let measured: Awaited<ReturnType<typeof measure>>;
  let standinMemory: MemoryPeaks;
  try {
    await database.ensureIndexes();
    measured = await measure(() => work(database.db));
  } finally {
    await database.close();
    standinMemory = await standin.stop();
  }
  return { label, services, ...measured, standin: standinMemory };
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

/** An import pass, with the most heap its importer retained (what a full GC leaves) along the way. */
interface ImportPass {
  pass: PassResult;
  report: ImportReport;
  retainedHeapBytes: number;
}

async function importPass(label: string, count: number, seed: number): Promise<ImportPass> {
  let report: ImportReport | undefined;
  let retainedHeapBytes = 0;
  let batches = 0;
  const pass = await onFreshDatabase(label, count, async (db) => {
    report = await importRecords(db, generatedRecords(count, seed), {
      onProgress: () => {
        if (batches++ % RETAINED_SAMPLE_BATCHES === 0)
          retainedHeapBytes = Math.max(retainedHeapBytes, retainedHeap());
      },
    });
  });
  retainedHeapBytes = Math.max(retainedHeapBytes, retainedHeap());
  checkReport(report!, count);
  return { pass, report: report!, retainedHeapBytes };
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

const peaks = (memory: MemoryPeaks | undefined) =>
  memory ? `${mib(memory.rssBytes).padStart(9)} ${mib(memory.heapUsedBytes).padStart(9)}` : ' '.repeat(19);
const standinPeaks = (memory: MemoryPeaks | undefined) =>
  memory ? `${peaks(memory)} ${mib(memory.anonBytes).padStart(9)}` : '';
const rate = (pass: PassResult) => pass.services / pass.seconds;

function printPass(pass: PassResult): void {
  console.log(
    `${pass.label.padEnd(38)} ${integer(pass.services).padStart(8)} ${pass.seconds.toFixed(2).padStart(8)} s` +
      ` ${integer(rate(pass)).padStart(8)}/s   ${peaks(pass.importer)}   ${standinPeaks(pass.standin)}`,
  );
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
    `   importer peak RSS, heap   stand-in peak RSS, heap, own`,
);
const input = await readInputOnly(smallCount, seed);
printPass(input);
const small = await importPass(`import (${SMALL_PASS_FRACTION * 100}% of the count)`, smallCount, seed);
printPass(small.pass);
const { pass: full, report, retainedHeapBytes } = await importPass('import', count, seed);
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
const rssRatio = full.importer.rssBytes / small.pass.importer.rssBytes;
const heapRatio = retainedHeapBytes / small.retainedHeapBytes;
console.log(
  `importer, ${integer(count)} vs ${integer(smallCount)} services: peak RSS ${rssRatio.toFixed(2)}×; ` +
    `retained heap (after a full GC, sampled every ${RETAINED_SAMPLE_BATCHES} batches) ` +
    `${mib(retainedHeapBytes)} vs ${mib(small.retainedHeapBytes)}, ${heapRatio.toFixed(2)}×`,
);
// The stand-in's own memory (RSS less the pages of its mapped data file, which are the kernel's cache).
const perService = (bytes: number) => `${integer(bytes / count / 1024)} KiB`;
console.log(
  `stand-in memory per service at ${integer(count)}: peak RSS ${perService(full.standin!.rssBytes)}, ` +
    `own (RSS less the mapped data file) ${perService(full.standin!.anonBytes)}; target ≤ ${TARGET_STANDIN_KIB_PER_SERVICE} KiB`,
);
const fastEnough = rate(full) >= TARGET_SERVICES_PER_SECOND;
const flat = rssRatio <= TARGET_MEMORY_RATIO && heapRatio <= TARGET_MEMORY_RATIO;
console.log(
  `verdict: rate ${integer(rate(full))}/s vs target ≥ ${integer(TARGET_SERVICES_PER_SECOND)}/s: ${meets(fastEnough)}; ` +
    `memory growth ≤ ${TARGET_MEMORY_RATIO}×: ${meets(flat)} (timings are informative: never a failure)`,
);
