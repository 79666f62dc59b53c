/*
 * The change feed's promise (issue #20, part 4): a client that applies the feed from its start holds
 * exactly the directory's records, after any mix of imports, replaces and crashes. A seeded random
 * sequence of loads for two sources (renamed services, services moved between organizations, services
 * at location dropped, organizations renamed), full refreshes, and CLI imports killed part-way (kill -9)
 * and then run again; a client polls the feed while each runs, fetching each upserted record over HTTP,
 * and after each step holds what the API serves, record for record. `FEED_SEED=N` runs another sequence.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../scripts/generator/random.ts';
import { serviceNdjsonChunks } from '../../scripts/generator/ndjson-chunks.ts';
import type { Json } from '../../src/json.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { importLines } from '../support/import.ts';
import { startScript, waitFor } from '../support/process.ts';
import { PENDING_COLLECTION } from '../../src/db/collections.ts';

const SEED = Number(process.env.FEED_SEED ?? 2026);
const STEPS = 14;
const RESOURCES = ['services', 'organizations', 'service_at_locations', 'taxonomies', 'taxonomy_terms'];

let app: TestApp;
let db: Db;
let workDir: string;
beforeAll(async () => {
  app = await startTestApp();
  db = app.database.db;
  workDir = await mkdtemp(path.join(tmpdir(), 'hsds-feed-'));
});
afterAll(async () => {
  await app?.close();
  await rm(workDir, { recursive: true, force: true });
});

const generated = [...serviceNdjsonChunks(40, 5)]
  .join('')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Json);

/** A copy of the client's: the served JSON of each record it was told of, by `resource/id`. */
class FeedClient {
  readonly held = new Map<string, string>();
  /** Records an upsert named that were gone when fetched: their deletes must follow. */
  readonly goneOnFetch = new Set<string>();
  private cursor: string | undefined;

  /** Applies every change after its cursor; an upsert is fetched (gone by then: a delete follows). */
  async sync(): Promise<void> {
    for (;;) {
      const query = `?limit=100${this.cursor === undefined ? '' : `&after=${this.cursor}`}`;
      const response = await fetch(`${app.url}/changes${query}`);
      expect(response.status).toBe(200);
      const text = await response.text();
      if (text === '') return;
      for (const line of text.trim().split('\n')) {
        const change = JSON.parse(line) as { cursor: string; resource: string; id: string; op: string };
        const key = `${change.resource}/${change.id}`;
        if (change.op === 'delete') {
          this.held.delete(key);
          this.goneOnFetch.delete(key);
        } else {
          const record = await served(key);
          if (record === undefined) {
            this.held.delete(key);
            this.goneOnFetch.add(key);
          } else {
            this.held.set(key, record);
            this.goneOnFetch.delete(key);
          }
        }
        this.cursor = change.cursor;
      }
    }
  }

  /** Syncs again and again while `work` runs, then once more after it. */
  async syncDuring<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const polling = (async () => {
      while (!done) {
        await this.sync();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      return await work;
    } finally {
      done = true;
      await polling;
      await this.sync();
    }
  }
}

/** The record at `resource/id` as served; undefined when it is not (404, 410). */
async function served(key: string): Promise<string | undefined> {
  const response = await fetch(`${app.url}/${key}`);
  if (response.status === 404 || response.status === 410) return undefined;
  expect(response.status, key).toBe(200);
  return response.text();
}

/** Every record the API serves, by `resource/id`. */
async function directory(): Promise<Map<string, string>> {
  const records = new Map<string, string>();
  for (const resource of RESOURCES) {
    for (const { id } of await db
      .collection(resource)
      .find({}, { projection: { id: 1 } })
      .toArray()) {
      const key = `${resource}/${id as string}`;
      records.set(key, (await served(key))!);
    }
  }
  return records;
}

const other = (source: string) => (source === 'north' ? 'south' : 'north');

/** The records held that are not served as held, and those served and not held, by key. */
function differences(held: Map<string, string>, served: Map<string, string>): string[] {
  const keys = new Set([...held.keys(), ...served.keys()]);
  return [...keys].flatMap((key) =>
    !served.has(key)
      ? [`${key} held, not served`]
      : !held.has(key)
        ? [`${key} served, not held`]
        : held.get(key) !== served.get(key)
          ? [`${key} held as it was served before`]
          : [],
  );
}

/** One step's input: some of the services, some changed (`step` makes each change new). */
function input(random: Random, step: number): Json[] {
  const chosen = random.sample(generated, random.between(20, generated.length));
  const organizations = generated.map((service) => service.organization as Json);
  const renamed = random.chance(0.3) ? random.pick(organizations).id : undefined;
  return chosen.map((original) => {
    let service: Json = structuredClone(original);
    if (random.chance(0.3)) service.name = `${service.name as string} (${step})`;
    if (random.chance(0.15)) {
      // Moved to another organization: its program, of the first one, goes.
      const { program: _program, program_id: _programId, ...rest } = service;
      const to = random.pick(organizations);
      service = { ...rest, organization: structuredClone(to), organization_id: to.id };
    }
    if (random.chance(0.15))
      service.service_at_locations = ((service.service_at_locations ?? []) as Json[]).slice(0, 1);
    const organization = service.organization as Json | undefined;
    if (organization && organization.id === renamed) organization.name = `Organization renamed at ${step}`;
    return service;
  });
}

describe('a client applying the change feed', () => {
  it(`holds exactly the directory's records after a random mix of imports, replaces and crashes (seed ${SEED})`, async () => {
    const random = new Random(SEED);
    const client = new FeedClient();
    const kinds: string[] = [];
    for (let step = 1; step <= STEPS; step++) {
      const source = random.pick(['north', 'south']);
      const replace = random.chance(0.35);
      const crash = random.chance(0.4);
      const records = input(random, step);
      const options = { source, ...(replace ? { replace: { force: true } } : {}) };
      kinds.push(
        `${step}: ${crash ? 'crashed ' : ''}${replace ? 'replace' : 'load'} ${source} ×${records.length}`,
      );
      if (crash) {
        // The CLI killed part-way: what it wrote is finished by the import run after it.
        const file = path.join(workDir, `step-${step}.ndjson`);
        await writeFile(file, records.map((record) => JSON.stringify(record)).join('\n'));
        const args = [
          '--source',
          source,
          ...(replace ? ['--replace', '--force'] : []),
          '--batch-size',
          '4',
          file,
        ];
        const killed = startScript(
          'scripts/import.ts',
          { MONGODB_URI: app.testDatabase.uri, HSDS_DB_NAME: db.databaseName, LOG_LEVEL: 'warn' },
          args,
        );
        // Killed once it has started writing (its first batch recorded pending), at a random point after.
        const delay = random.between(0, 400);
        await client.syncDuring(
          (async () => {
            let exited = false;
            void killed.exited.then(() => (exited = true));
            await waitFor(
              async () => exited || (await db.collection(PENDING_COLLECTION).countDocuments()) > 0,
              60_000,
              'the import to start writing',
            );
            await new Promise((resolve) => setTimeout(resolve, delay));
            killed.child.kill('SIGKILL');
            await killed.exited;
          })(),
        );
      }
      // Sometimes another source's load at the same time: the imports take turns, the feed follows both.
      const alongside = random.chance(0.3) ? input(random, step) : undefined;
      if (alongside) kinds.push(`${step}: and alongside, load ${other(source)} ×${alongside.length}`);
      const reports = await client.syncDuring(
        Promise.all([
          importLines(db, records, options),
          ...(alongside ? [importLines(db, alongside, { source: other(source) })] : []),
        ]),
      );
      for (const report of reports) expect(report.rejected, kinds.join('\n')).toBe(0);
      expect([...client.goneOnFetch], kinds.join('\n')).toEqual([]);
      expect(differences(client.held, await directory()), kinds.join('\n')).toEqual([]);
    }
    // The sequence did what it is for: crashes and replaces that deleted.
    expect(kinds.some((kind) => kind.includes('crashed'))).toBe(true);
    expect(kinds.some((kind) => kind.includes('replace'))).toBe(true);
  }, 300_000);
});
