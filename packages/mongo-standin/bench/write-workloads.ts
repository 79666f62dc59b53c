/**
 * Throughput of the MongoDB stand-in on the bulk import's workloads, through the real driver against an
 * in-process server (as the app runs it), with a fresh data directory:
 *
 *     npm run bench -w mongo-standin              # 100k services of ~5 KB
 *     BENCH_DOCS=20000 npm run bench -w mongo-standin
 *
 * Prints one line per workload: its rate per second of wall time and per second of CPU time. Figures
 * vary from machine to machine and run to run: compare runs made on the same machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type AnyBulkWriteOperation, type Document } from 'mongodb';
import { startStandin } from '../src/index.ts';

const TOTAL_DOCS = Number(process.env.BENCH_DOCS ?? 100_000);
const BATCH = 1_000;
/** Operations per write workload other than the initial insert. */
const WRITE_OPS = Math.min(20_000, TOTAL_DOCS);

/** Deterministic pseudo-random numbers (mulberry32), so that every run works on the same data. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = randomSource(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const WORDS = ['food', 'shelter', 'health', 'legal', 'youth', 'senior', 'job', 'housing', 'care', 'aid'];
const text = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(' ');
const serviceId = (n: number) => `svc-${n.toString().padStart(8, '0')}`;
/** Shared entities (organizations, locations, taxonomy terms) that many services embed. */
const organizationId = (n: number) => `org-${n % 2_000}`;
const locationId = (n: number) => `loc-${n % 10_000}`;
const termId = (n: number) => `term-${n % 500}`;

/** An HSDS-like service with its organization, locations, phones, schedules and terms embedded (~5 KB). */
function service(n: number): Document {
  const locations = [0, 1].map((i) => ({
    id: locationId(n * 2 + i),
    name: text(4),
    description: text(30),
    latitude: 41 + random(),
    longitude: -87 - random(),
    addresses: [{ id: `addr-${n}-${i}`, address_1: text(3), city: 'Chicago', postal_code: '60601' }],
    accessibility: [{ id: `acc-${n}-${i}`, description: text(12) }],
  }));
  const terms = [0, 1, 2].map((i) => ({ id: termId(n * 3 + i), code: `T${i}`, term: text(2) }));
  return {
    id: serviceId(n),
    name: `${text(3)} ${n}`,
    alternate_name: text(3),
    description: text(120),
    url: `https://example.org/services/${n}`,
    email: `service${n}@example.org`,
    status: 'active',
    fees_description: text(15),
    organization: {
      id: organizationId(n),
      name: text(3),
      description: text(40),
      website: 'https://example.org',
    },
    service_at_locations: locations.map((location, i) => ({ id: `sal-${n}-${i}`, location })),
    phones: [0, 1, 2].map((i) => ({ id: `ph-${n}-${i}`, number: `312555${n % 10_000}`, type: 'voice' })),
    schedules: [0, 1].map((i) => ({
      id: `sch-${n}-${i}`,
      byday: 'MO,TU,WE',
      opens_at: '09:00',
      closes_at: '17:00',
    })),
    attributes: terms.map((taxonomy_term, i) => ({ id: `attr-${n}-${i}`, taxonomy_term })),
    _deps: [organizationId(n), ...locations.map((l) => l.id), ...terms.map((t) => t.id)],
    last_modified: new Date(1_700_000_000_000 + n * 1000),
  };
}

/**
 * Runs a workload and prints its rate over wall time and over the process's CPU time (client and
 * server together): the CPU figure moves less when other processes compete for the machine.
 */
async function measure(label: string, units: string, run: () => Promise<number>): Promise<void> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const count = await run();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const rate = (per: number) => Math.round(count / per).toLocaleString('en-US');
  process.stdout.write(
    `${label.padEnd(58)} ${rate(seconds).padStart(8)} ${units}/s  ${rate(cpuSeconds).padStart(8)} ${units}/cpu-s  (${count} in ${seconds.toFixed(2)} s)\n`,
  );
}

const dataDir = await mkdtemp(join(tmpdir(), 'bench-standin-'));
const server = await startStandin({ port: 0, dataDir });
const client = await new MongoClient(server.uri).connect();
try {
  const services = client.db('bench').collection('services');
  await services.createIndex({ id: 1 }, { unique: true });
  await services.createIndex({ _deps: 1 });
  await services.createIndex({ name: 1 });
  process.stdout.write(`${TOTAL_DOCS} services, batches of ${BATCH}\n`);

  await measure('insertMany (1,000-doc batches)', 'docs', async () => {
    for (let start = 0; start < TOTAL_DOCS; start += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, TOTAL_DOCS - start) }, (_, i) => service(start + i));
      await services.insertMany(batch);
    }
    return TOTAL_DOCS;
  });

  await measure('bulkWrite replaceOne({id}, upsert), 10% new', 'ops', async () => {
    for (let done = 0; done < WRITE_OPS; done += BATCH) {
      const ops: AnyBulkWriteOperation[] = Array.from({ length: BATCH }, (_, i) => {
        const n = random() < 0.1 ? TOTAL_DOCS + done + i : Math.floor(random() * TOTAL_DOCS);
        return { replaceOne: { filter: { id: serviceId(n) }, replacement: service(n), upsert: true } };
      });
      await services.bulkWrite(ops, { ordered: false });
    }
    return WRITE_OPS;
  });

  await measure('bulkWrite updateOne({id}, {$set})', 'ops', async () => {
    for (let done = 0; done < WRITE_OPS; done += BATCH) {
      const ops: AnyBulkWriteOperation[] = Array.from({ length: BATCH }, () => ({
        updateOne: {
          filter: { id: serviceId(Math.floor(random() * TOTAL_DOCS)) },
          update: { $set: { status: 'inactive', 'organization.name': text(2) } },
        },
      }));
      await services.bulkWrite(ops, { ordered: false });
    }
    return WRITE_OPS;
  });

  await measure('updateMany({id: {$in: 1,000 ids}}, {$set})', 'docs', async () => {
    let matched = 0;
    for (let done = 0; done < WRITE_OPS; done += BATCH) {
      const ids = Array.from({ length: BATCH }, () => serviceId(Math.floor(random() * TOTAL_DOCS)));
      matched += (await services.updateMany({ id: { $in: ids } }, { $set: { status: 'active' } }))
        .matchedCount;
    }
    return matched;
  });

  await measure('find({id: {$in: 1,000 ids}})', 'docs', async () => {
    let found = 0;
    for (let round = 0; round < 20; round++) {
      const ids = Array.from({ length: BATCH }, () => serviceId(Math.floor(random() * TOTAL_DOCS)));
      found += (await services.find({ id: { $in: ids } }).toArray()).length;
    }
    return found;
  });

  await measure('find({_deps: {$in: [3 entity ids]}}) (multikey index)', 'queries', async () => {
    const queries = 200;
    for (let round = 0; round < queries; round++) {
      const deps = [organizationId(round), locationId(round * 7), termId(round)];
      await services.find({ _deps: { $in: deps } }, { projection: { id: 1 } }).toArray();
    }
    return queries;
  });

  await measure('find({id}) one at a time', 'queries', async () => {
    const queries = 5_000;
    for (let round = 0; round < queries; round++)
      await services.findOne({ id: serviceId(Math.floor(random() * TOTAL_DOCS)) });
    return queries;
  });

  await measure('find().sort({name: 1}).skip().limit(20) list pages', 'pages', async () => {
    const pages = 100;
    for (let page = 0; page < pages; page++)
      await services
        .find({})
        .sort({ name: 1 })
        .skip(Math.floor(random() * 1_000) * 20)
        .limit(20)
        .toArray();
    return pages;
  });
} finally {
  await client.close();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
