/**
 * `npm run bench:import [-- --count N] [-- --seed S] [-- --workers W]`: the bulk import of generated services
 * (scripts/generator) as `npm run import services.ndjson` does it, against issue #18's targets, each
 * measured against a baseline taken in the same run. Before any pass, the input is generated into NDJSON
 * files in a temporary directory (removed at the end): every service, and the first 20% of them for the
 * small pass; the full file's size is the input's bytes, what stored sizes are compared to. Every pass
 * reads its file through the CLI's reader (`readNdjsonFile`). Each database pass runs on a fresh stand-in
 * in a process of its own, with the app's indexes. Passes, in order:
 *
 *   - reading and parsing the file alone, without importing it: the ceiling, and its CPU per service;
 *   - import of the 20% file: the importer's memory at the small size;
 *   - import of the full file; then, on the same database, what it stores (dbStats' data and index sizes,
 *     and the growth of the data directory on disk) and a re-import of the very same file, unchanged;
 *   - baseline: `insertMany` of the full file's documents, read the same way, into one collection (what
 *     the database alone takes).
 *
 * The importer's CPU is this process's over an import pass, reading the file included, as a user's import
 * spends it: nothing else runs here then (but the bench's own heap sampling, which is left out); its
 * main thread's share is printed beside it on Linux (without V8's helper threads and the validation
 * workers: the share that limits an import where the database and the workers have cores of their own).
 * Prints each pass's time, rate, CPU per service (this process, the stand-in) and memory peaks; then the
 * import's stored sizes and CPU in detail; then a summary: each target, the figure measured, met or not.
 * Exits 0 whatever the figures (shared machines are noisy); it fails only when an import errors, does not
 * insert every service, or the re-import finds any service changed or writes anything.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Db, Document } from 'mongodb';
import { importRecords } from '../src/ingest/import.ts';
import type { ImportReport } from '../src/ingest/report.ts';
import { parsedRecord } from '../src/ingest/input-record.ts';
import { readNdjsonFile } from '../src/ingest/sources/ndjson.ts';
import { integer, meets, mib, mibTenths, nonNegativeInteger, positiveInteger } from './format.ts';
import { checkReport, checkUnchanged, writeGeneratedNdjson } from './generated-services.ts';
import { mainThreadCpuSince } from './main-thread-cpu.ts';
import { sampleMemoryPeaks, type MemoryPeaks } from './memory-peaks.ts';
import { benchDatabase, startStandinProcess, type StandinProcess } from './standin.ts';

/** Import of new services, as a share of the baseline's `insertMany` rate (issue #18), and the aim beyond. */
const TARGET_IMPORT_RATIO = 0.4;
const AIM_IMPORT_RATIO = 0.7;
/** Re-import of unchanged services, as a share of the baseline's rate. */
const TARGET_REIMPORT_RATIO = 1;
/** Stored bytes (dbStats, or the data directory's growth on disk) per byte of NDJSON input. */
const TARGET_STORED_RATIO = 3;
/** The stand-in's own resident memory per stored service (issue #17). */
const TARGET_STANDIN_KIB_PER_SERVICE = 40;
/** The importer's CPU per service, reading the file included. */
const TARGET_CPU_MICROS_PER_NEW_SERVICE = 600;
const TARGET_CPU_MICROS_PER_UNCHANGED_SERVICE = 150;
/** Largest accepted growth of the importer's peak RSS and retained heap from the small pass to the full one. */
const TARGET_MEMORY_RATIO = 1.5;
/** The long-term rate on a real mongod: informative only, as the stand-in is not one. */
const GOAL_SERVICES_PER_SECOND_ON_MONGOD = 5_000;

const SMALL_PASS_FRACTION = 0.2;
/** Width of the passes' labels in their table. */
const LABEL_WIDTH = 40;
const BASELINE_BATCH = 1_000;
/**
 * A full GC every this many records read measures the heap an import pass retains: as often in a small pass
 * as in a large one, since the collections forced also hold a pass's peak RSS down (alike in both), each
 * at the end of a batch's turn, with the import's pipeline of batches under way. Their time and CPU are
 * the bench's, taken out of the pass's figures.
 */
const RETAINED_SAMPLE_RECORDS = 1_000;
/** `stat`'s `blocks` counts 512-byte units, whatever the file system's block size. */
const STAT_BLOCK_BYTES = 512;

// The heap a process retains shows only after a full collection; the peak heap includes garbage not yet
// collected, which grows with the heap V8 allows itself, not with what the importer holds.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const retainedHeap = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

const cpuMicros = ({ user, system }: NodeJS.CpuUsage) => user + system;

interface PassResult {
  label: string;
  services: number;
  seconds: number;
  /** CPU time of this process (the importer's, for an import pass), user and system, in µs. */
  benchCpuMicros: number;
  /** The part of it on the main thread (main-thread-cpu.ts); undefined where it cannot be told. */
  mainThreadCpuMicros: number | undefined;
  /** This process's memory peaks. */
  importer: MemoryPeaks;
  /** The stand-in's CPU time over the pass; absent for the passes that use no database. */
  standinCpuMicros?: number;
}

/** Runs `work` while sampling this process's memory and taking the CPU time of it and of `standin`. */
async function measure<T>(
  label: string,
  services: number,
  work: () => Promise<T>,
  standin?: StandinProcess,
): Promise<{ pass: PassResult; result: T }> {
  const standinCpuBefore = await standin?.cpuUsage();
  const memory = sampleMemoryPeaks();
  const cpuBefore = process.cpuUsage();
  const mainThread = mainThreadCpuSince();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const benchCpuMicros = cpuMicros(process.cpuUsage(cpuBefore));
  const mainThreadCpuMicros = mainThread.elapsed();
  const importer = memory.stop();
  const standinCpuMicros =
    standin && standinCpuBefore && cpuMicros(await standin.cpuUsage()) - cpuMicros(standinCpuBefore);
  return {
    pass: {
      label,
      services,
      seconds,
      benchCpuMicros,
      mainThreadCpuMicros,
      importer,
      standinCpuMicros,
    },
    result,
  };
}

/**
 * Runs `work` on a fresh, indexed database served by a new stand-in process; gives what it returns and the
 * stand-in's memory peaks over its whole life.
 */
async function onFreshDatabase<T>(
  work: (db: Db, standin: StandinProcess) => Promise<T>,
): Promise<{ result: T; standinPeaks: MemoryPeaks }> {
  const standin = await startStandinProcess();
  const database = benchDatabase(standin.uri);
  let result: T;
  let standinPeaks: MemoryPeaks;
  try {
    await database.ensureIndexes();
    result = await work(database.db, standin);
  } finally {
    await database.close();
    standinPeaks = await standin.stop();
  }
  return { result, standinPeaks };
}

/** The NDJSON files the passes read, generated before any of them. */
interface InputFiles {
  /** Every service. */
  full: string;
  /** The first services only, for the small pass. */
  small: string;
  /** The full file's size: the import's input. */
  bytes: number;
}

/**
 * Generates the input files into a temporary directory, runs `work` on them, then removes the directory,
 * also when `work` fails. Generating ahead keeps its CPU and garbage out of every measured pass.
 */
async function withInputFiles<T>(
  count: number,
  smallCount: number,
  seed: number,
  work: (files: InputFiles) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-import-'));
  try {
    const files = { full: join(dir, 'services.ndjson'), small: join(dir, 'services-small.ndjson') };
    await writeGeneratedNdjson(files.full, count, seed);
    // The same seed: the small file holds the full one's first services.
    await writeGeneratedNdjson(files.small, smallCount, seed);
    const { size } = await stat(files.full);
    return await work({ ...files, bytes: size });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Reads the file through the CLI's reader and parses each record (as validating does) without importing
 * it: the ceiling of an import of new records from it.
 */
async function readFileAlone(file: string, count: number): Promise<PassResult> {
  const { pass } = await measure('reading and parsing the file alone', count, async () => {
    for await (const record of readNdjsonFile(file)) {
      const { error } = parsedRecord(record);
      if (error !== undefined) throw new Error(`${file} line ${record.source.line}: ${error}`);
    }
  });
  return pass;
}

/** An import pass, with the most heap its importer retained (what a full GC leaves) along the way. */
interface ImportPass {
  pass: PassResult;
  report: ImportReport;
  retainedHeapBytes: number;
}

async function importPass(
  label: string,
  file: string,
  count: number,
  db: Db,
  standin: StandinProcess,
): Promise<ImportPass> {
  let retainedHeapBytes = 0;
  // The full collections that measure the retained heap are the bench's cost, not the importer's.
  let samplingCpuMicros = 0;
  let samplingMainThreadMicros = 0;
  let samplingMs = 0;
  let sampled = 0;
  const sampleRetainedHeap = () => {
    const before = process.cpuUsage();
    const mainThread = mainThreadCpuSince();
    const started = performance.now();
    retainedHeapBytes = Math.max(retainedHeapBytes, retainedHeap());
    samplingMs += performance.now() - started;
    samplingCpuMicros += cpuMicros(process.cpuUsage(before));
    samplingMainThreadMicros += mainThread.elapsed() ?? 0;
  };
  const { pass, result: report } = await measure(
    label,
    count,
    () =>
      importRecords(db, readNdjsonFile(file), {
        workers,
        onProgress: (recordsRead) => {
          if (recordsRead < (sampled + 1) * RETAINED_SAMPLE_RECORDS) return;
          sampled += 1;
          sampleRetainedHeap();
        },
      }),
    standin,
  );
  retainedHeapBytes = Math.max(retainedHeapBytes, retainedHeap());
  checkReport(report, count);
  return {
    pass: {
      ...pass,
      // The import's own time: it waits while the bench collects (the database may go on meanwhile).
      seconds: pass.seconds - samplingMs / 1000,
      benchCpuMicros: pass.benchCpuMicros - samplingCpuMicros,
      mainThreadCpuMicros:
        pass.mainThreadCpuMicros === undefined
          ? undefined
          : pass.mainThreadCpuMicros - samplingMainThreadMicros,
    },
    report,
    retainedHeapBytes,
  };
}

/** Bytes of the files in a directory: allocated on disk, and their apparent sizes (holes included). */
interface DiskUse {
  allocatedBytes: number;
  apparentBytes: number;
}

async function diskUse(dir: string): Promise<DiskUse> {
  const use: DiskUse = { allocatedBytes: 0, apparentBytes: 0 };
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const { blocks, size } = await stat(join(dir, entry.name));
    use.allocatedBytes += blocks * STAT_BLOCK_BYTES;
    use.apparentBytes += size;
  }
  return use;
}

/** What the full import stored: dbStats' sizes, and how much the data directory grew. */
interface StoredSizes {
  dataBytes: number;
  indexBytes: number;
  dataDirGrowth: DiskUse;
}

/** The full import, then on the same database what it stored and a re-import of the same services. */
interface FullImport extends ImportPass {
  stored: StoredSizes;
  reimport: PassResult;
}

async function fullImportAndReimport(file: string, count: number) {
  return onFreshDatabase(async (db, standin): Promise<FullImport> => {
    const before = await diskUse(standin.dataDir);
    const imported = await importPass('import', file, count, db, standin);
    const stats = await db.command({ dbStats: 1 });
    const after = await diskUse(standin.dataDir);
    const stored = {
      dataBytes: Number(stats.dataSize),
      indexBytes: Number(stats.indexSize),
      dataDirGrowth: {
        allocatedBytes: after.allocatedBytes - before.allocatedBytes,
        apparentBytes: after.apparentBytes - before.apparentBytes,
      },
    };
    const { pass: reimport, result: reimportReport } = await measure(
      're-import, unchanged',
      count,
      () => importRecords(db, readNdjsonFile(file), { workers }),
      standin,
    );
    checkUnchanged(reimportReport, count);
    return { ...imported, stored, reimport };
  });
}

async function insertManyBaseline(file: string, count: number) {
  return onFreshDatabase(async (db, standin) => {
    // Only the unique id index: the database's cost of taking the documents, not of the app's indexes.
    const collection = db.collection('baseline_services');
    await collection.createIndex({ id: 1 }, { unique: true });
    const { pass } = await measure(
      'baseline: insertMany, one collection',
      count,
      async () => {
        let batch: Document[] = [];
        for await (const record of readNdjsonFile(file)) {
          batch.push(parsedRecord(record).value as Document);
          if (batch.length === BASELINE_BATCH) {
            await collection.insertMany(batch);
            batch = [];
          }
        }
        if (batch.length > 0) await collection.insertMany(batch);
      },
      standin,
    );
    return pass;
  });
}

const rate = (pass: PassResult) => pass.services / pass.seconds;
const perService = (total: number, pass: PassResult) => total / pass.services;
const times = (ratio: number) => `${ratio.toFixed(2)}×`;
const microseconds = (micros: number) => `${integer(micros)} µs`;

const peaks = (memory: MemoryPeaks) =>
  `${mib(memory.rssBytes).padStart(9)} ${mib(memory.heapUsedBytes).padStart(9)}`;

/** A row of the passes' table; `standin` is the peaks of the stand-in that served the pass. */
function printPass(pass: PassResult, standin?: MemoryPeaks): void {
  const standinCpu =
    pass.standinCpuMicros === undefined ? '' : microseconds(perService(pass.standinCpuMicros, pass));
  console.log(
    `${pass.label.padEnd(LABEL_WIDTH)} ${integer(pass.services).padStart(8)} ${pass.seconds.toFixed(2).padStart(8)} s` +
      ` ${integer(rate(pass)).padStart(8)}/s ${microseconds(perService(pass.benchCpuMicros, pass)).padStart(12)}` +
      ` ${standinCpu.padStart(12)}   ${peaks(pass.importer)}` +
      (standin ? `   ${peaks(standin)} ${mib(standin.anonBytes).padStart(9)}` : ''),
  );
}

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    workers: { type: 'string' },
  },
});
const count = positiveInteger(values.count, 'count');
const seed = positiveInteger(values.seed, 'seed');
// The import's validation workers: its own choice for this machine unless given (0: none).
const workers = values.workers === undefined ? undefined : nonNegativeInteger(values.workers, 'workers');
const smallCount = Math.max(1, Math.round(count * SMALL_PASS_FRACTION));

console.log(
  `bench:import: ${integer(count)} generated services (seed ${seed}), node ${process.version}, ` +
    `validation workers: ${workers ?? 'automatic'}; ` +
    'read from an NDJSON file generated before the passes; each database pass on a fresh stand-in in its ' +
    'own process; CPU per service',
);
console.log(
  `${'pass'.padEnd(LABEL_WIDTH)} ${'services'.padStart(8)} ${'time'.padStart(10)} ${'rate'.padStart(10)}` +
    ` ${'bench CPU'.padStart(12)} ${'stand-in CPU'.padStart(12)}   importer peak RSS, heap   stand-in peak RSS, heap, own`,
);
// Each row is printed as its pass ends.
const { inputBytes, readAlone, small, full, fullStandin, baseline } = await withInputFiles(
  count,
  smallCount,
  seed,
  async (files) => {
    const readAlone = await readFileAlone(files.full, count);
    printPass(readAlone);
    const { result: small, standinPeaks: smallStandin } = await onFreshDatabase((db, standin) =>
      importPass(`import (${SMALL_PASS_FRACTION * 100}% of the count)`, files.small, smallCount, db, standin),
    );
    printPass(small.pass, smallStandin);
    const { result: full, standinPeaks: fullStandin } = await fullImportAndReimport(files.full, count);
    printPass(full.pass, fullStandin);
    // The stand-in's peaks of the import row are over its whole life: the re-import's included.
    printPass(full.reimport);
    const { result: baseline, standinPeaks: baselineStandin } = await insertManyBaseline(files.full, count);
    printPass(baseline, baselineStandin);
    return { inputBytes: files.bytes, readAlone, small, full, fullStandin, baseline };
  },
);

const { report, stored } = full;
const written = Object.entries(report.documentsWritten).map(
  ([name, documents]) => `${name} ${integer(documents)}`,
);
console.log(`\nimport wrote documents: ${written.join(', ')}; ${report.warningCount} warnings`);
// Shortened: a database's message can quote the whole document.
if (report.warnings[0] !== undefined) console.log(`first warning: ${report.warnings[0].slice(0, 300)}…`);

const importRatio = rate(full.pass) / rate(baseline);
const reimportRatio = rate(full.reimport) / rate(baseline);

const storedBytes = stored.dataBytes + stored.indexBytes;
const storedRatio = storedBytes / inputBytes;
const allocatedRatio = stored.dataDirGrowth.allocatedBytes / inputBytes;
const apparentRatio = stored.dataDirGrowth.apparentBytes / inputBytes;
console.log(`input: ${mibTenths(inputBytes)} of NDJSON, ${integer(inputBytes / count)} bytes per service`);
console.log(
  `stored after the import: dbStats data ${mibTenths(stored.dataBytes)} + indexes ` +
    `${mibTenths(stored.indexBytes)} = ${mibTenths(storedBytes)}, ${times(storedRatio)} the input; ` +
    `data directory grew ${mibTenths(stored.dataDirGrowth.allocatedBytes)} on disk, ${times(allocatedRatio)} ` +
    `(apparent size ${mibTenths(stored.dataDirGrowth.apparentBytes)}, ${times(apparentRatio)})`,
);

const benchMicros = (pass: PassResult) => perService(pass.benchCpuMicros, pass);
const newServiceMicros = benchMicros(full.pass);
const unchangedServiceMicros = benchMicros(full.reimport);
// The import's own thread, without V8's helper threads and validation workers: what limits an import where
// the database and the workers have cores of their own.
const onMainThread = (pass: PassResult) =>
  pass.mainThreadCpuMicros === undefined
    ? ''
    : ` (its main thread ${microseconds(perService(pass.mainThreadCpuMicros, pass))})`;
console.log(
  `importer CPU per service (this process, reading the file included): new ${microseconds(newServiceMicros)}` +
    `${onMainThread(full.pass)}, unchanged ${microseconds(unchangedServiceMicros)}${onMainThread(full.reimport)}; ` +
    `reading and parsing the file alone ${microseconds(benchMicros(readAlone))}`,
);
const standinMicros = (pass: PassResult) => microseconds(perService(pass.standinCpuMicros!, pass));
console.log(
  `stand-in CPU per service: new ${standinMicros(full.pass)}, unchanged ${standinMicros(full.reimport)}, ` +
    `insertMany ${standinMicros(baseline)}`,
);

const rssRatio = full.pass.importer.rssBytes / small.pass.importer.rssBytes;
const heapRatio = full.retainedHeapBytes / small.retainedHeapBytes;
console.log(
  `importer memory, ${integer(count)} vs ${integer(smallCount)} services: peak RSS ${times(rssRatio)}; ` +
    `retained heap (after a full GC, sampled every ${integer(RETAINED_SAMPLE_RECORDS)} records) ` +
    `${mib(full.retainedHeapBytes)} vs ${mib(small.retainedHeapBytes)}, ${times(heapRatio)}`,
);
// The stand-in's own memory: its RSS less the pages of its mapped data file, which are the kernel's cache.
const kibPerService = (bytes: number) => bytes / count / 1024;
const standinOwnKib = kibPerService(fullStandin.anonBytes);
console.log(
  `stand-in memory per service at ${integer(count)}: peak RSS ${integer(kibPerService(fullStandin.rssBytes))} KiB, ` +
    `own (RSS less the mapped data file) ${integer(standinOwnKib)} KiB`,
);

interface Verdict {
  figure: string;
  target: string;
  measured: string;
  met: boolean;
}
const verdicts: Verdict[] = [
  {
    figure: 'import of new services, rate / insertMany',
    target: `≥ ${times(TARGET_IMPORT_RATIO)} (aim ${times(AIM_IMPORT_RATIO)})`,
    measured: `${times(importRatio)} (${integer(rate(full.pass))}/s vs ${integer(rate(baseline))}/s)`,
    met: importRatio >= TARGET_IMPORT_RATIO,
  },
  {
    figure: 'unchanged re-import, rate / insertMany',
    target: `≥ ${times(TARGET_REIMPORT_RATIO)}`,
    measured: `${times(reimportRatio)} (${integer(rate(full.reimport))}/s)`,
    met: reimportRatio >= TARGET_REIMPORT_RATIO,
  },
  {
    figure: 'stored (dbStats data + indexes) / input',
    target: `≤ ${times(TARGET_STORED_RATIO)}`,
    measured: times(storedRatio),
    met: storedRatio <= TARGET_STORED_RATIO,
  },
  {
    figure: 'data directory growth on disk / input',
    target: `≤ ${times(TARGET_STORED_RATIO)}`,
    measured: `${times(allocatedRatio)} (apparent ${times(apparentRatio)})`,
    met: allocatedRatio <= TARGET_STORED_RATIO,
  },
  {
    figure: 'stand-in own memory per service',
    target: `≤ ${TARGET_STANDIN_KIB_PER_SERVICE} KiB`,
    measured: `${integer(standinOwnKib)} KiB (at ${integer(count)} services)`,
    met: standinOwnKib <= TARGET_STANDIN_KIB_PER_SERVICE,
  },
  {
    figure: 'importer CPU per new service',
    target: `≤ ${microseconds(TARGET_CPU_MICROS_PER_NEW_SERVICE)}`,
    measured: microseconds(newServiceMicros),
    met: newServiceMicros <= TARGET_CPU_MICROS_PER_NEW_SERVICE,
  },
  {
    figure: 'importer CPU per unchanged service',
    target: `≤ ${microseconds(TARGET_CPU_MICROS_PER_UNCHANGED_SERVICE)}`,
    measured: microseconds(unchangedServiceMicros),
    met: unchangedServiceMicros <= TARGET_CPU_MICROS_PER_UNCHANGED_SERVICE,
  },
  {
    figure: `importer memory growth, ${SMALL_PASS_FRACTION * 100}% to full count`,
    target: `≤ ${times(TARGET_MEMORY_RATIO)}`,
    measured: `peak RSS ${times(rssRatio)}, retained heap ${times(heapRatio)}`,
    met: rssRatio <= TARGET_MEMORY_RATIO && heapRatio <= TARGET_MEMORY_RATIO,
  },
];
const figureWidth = Math.max(...verdicts.map(({ figure }) => figure.length));
const targetWidth = Math.max(...verdicts.map(({ target }) => target.length));
const measuredWidth = Math.max(...verdicts.map(({ measured }) => measured.length));
console.log('\nsummary (issue #18; timings are informative: never a failure)');
console.log(
  `${'figure'.padEnd(figureWidth)}  ${'target'.padEnd(targetWidth)}  ${'measured'.padEnd(measuredWidth)}  verdict`,
);
for (const { figure, target, measured, met } of verdicts)
  console.log(
    `${figure.padEnd(figureWidth)}  ${target.padEnd(targetWidth)}  ${measured.padEnd(measuredWidth)}  ${meets(met)}`,
  );
console.log(
  `long-term goal on a real mongod: ≥ ${integer(GOAL_SERVICES_PER_SECOND_ON_MONGOD)} new services/s ` +
    `(informative: the stand-in is not one; ${integer(rate(full.pass))}/s here)`,
);
