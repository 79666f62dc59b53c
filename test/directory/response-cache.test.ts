/*
 * The directory's answers kept in memory (src/directory/response-cache.ts): a record or a page is sent
 * again as it was, conditional requests too, until an import marks the directory changed; then every
 * server sharing the database serves the change within a second (two servers here, the import made by
 * the CLI in a process of its own). Streams, POSTs and answers over an eighth of the budget are never
 * kept, and HSDS_RESPONSE_CACHE_MB=0 keeps nothing. A stored document is changed behind the app's back
 * (the driver, no mark) to tell a kept answer from a fresh one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentCollection } from '../../src/db/collections.ts';
import { markDirectoryChanged } from '../../src/db/directory-generation.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startSampleApp } from '../support/directory-client.ts';
import { startScript } from '../support/process.ts';

const SERVICE = 'efa9f0a1-71c2-5bcc-99e9-efb38d324476';
const RECORD = `/services/${SERVICE}`;
const PAGE = '/services?per_page=100';

let app: TestApp;
/** A second server on the same database. */
let other: TestApp;
let workDir: string;
beforeAll(async () => {
  app = await startSampleApp();
  other = await startTestApp({}, { sharing: app.testDatabase });
  workDir = await mkdtemp(path.join(tmpdir(), 'hsds-kept-'));
}, 120_000);
afterAll(async () => {
  await other?.close();
  await app?.close();
  await rm(workDir, { recursive: true, force: true });
});

const services = () => app.testDatabase.db.collection(documentCollection.service);
const get = (server: TestApp, target: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${target}`, { headers });
const pageIds = async (server: TestApp, target = PAGE) =>
  ((await (await get(server, target)).json()) as { contents: { id: string }[] }).contents.map(({ id }) => id);

/** The app's Prometheus samples, by name and labels as written. */
async function metricsOf(server: TestApp): Promise<Map<string, number>> {
  const text = await (await get(server, '/metrics')).text();
  const samples = text.split('\n').filter((line) => line && !line.startsWith('#'));
  return new Map(
    samples.map((line) => [
      line.slice(0, line.lastIndexOf(' ')),
      Number(line.slice(line.lastIndexOf(' ') + 1)),
    ]),
  );
}

/** Removes the service's document without marking the directory changed; gives it back, marked, after `work`. */
async function withServiceRemovedUnmarked(work: () => Promise<void>): Promise<void> {
  const stored = (await services().findOne({ id: SERVICE })) as Document;
  await services().deleteOne({ id: SERVICE });
  try {
    await work();
  } finally {
    await services().insertOne(stored);
    await markDirectoryChanged(app.testDatabase.db);
  }
}

describe('kept answers', () => {
  it('sends a record and a page again as they were, and answers their conditional requests, until a change is marked', async () => {
    const record = await get(app, RECORD);
    const body = await record.text();
    const tag = record.headers.get('etag')!;
    const lastModified = record.headers.get('last-modified');
    expect(await pageIds(app)).toContain(SERVICE);

    await withServiceRemovedUnmarked(async () => {
      const again = await get(app, RECORD);
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(body);
      expect(again.headers.get('etag')).toBe(tag);
      expect(again.headers.get('last-modified')).toBe(lastModified);
      expect(again.headers.get('content-type')).toBe(record.headers.get('content-type'));
      expect((await get(app, RECORD, { 'if-none-match': tag })).status).toBe(304);
      const identity = { 'accept-encoding': 'identity' };
      const head = await fetch(`${app.url}${RECORD}`, { method: 'HEAD', headers: identity });
      const identityTag = (await get(app, RECORD, identity)).headers.get('etag');
      expect([head.status, head.headers.get('etag'), await head.text()]).toEqual([200, identityTag, '']);
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
      expect(await pageIds(app)).toContain(SERVICE);

      const metrics = await metricsOf(app);
      expect(metrics.get('hsds_kept_answers_total{outcome="hit"}')).toBeGreaterThanOrEqual(3);
      expect(metrics.get('hsds_kept_answers_total{outcome="miss"}')).toBeGreaterThanOrEqual(2);
      expect(metrics.get('hsds_kept_answers_bytes')).toBeGreaterThan(body.length);
      const dropped = metrics.get('hsds_kept_answers_dropped_total')!;

      // A change marked by this process is seen at once.
      await markDirectoryChanged(app.testDatabase.db);
      expect((await get(app, RECORD)).status).toBe(404);
      expect((await get(app, RECORD, { 'if-none-match': tag })).status).toBe(404);
      expect(await pageIds(app)).not.toContain(SERVICE);
      expect((await metricsOf(app)).get('hsds_kept_answers_dropped_total')).toBe(dropped + 1);
    });
    expect(await (await get(app, RECORD)).text()).toBe(body);
  });

  it('keeps no stream, no POST list, nor an answer over an eighth of the budget', async () => {
    const small = await startTestApp({ HSDS_RESPONSE_CACHE_MB: '1' }, { sharing: app.testDatabase });
    try {
      const streamed = async () =>
        (await (await get(app, '/services?format=ndjson')).text()).includes(SERVICE);
      const posted = async () => {
        const response = await fetch(`${app.url}/services`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ per_page: 100 }),
        });
        return ((await response.json()) as { contents: { id: string }[] }).contents.some(
          ({ id }) => id === SERVICE,
        );
      };
      // Some 700 KB: over the eighth of a MiB.
      const large = '/services?per_page=100&full=true';
      // Its total_items counts the removed service: a page read again would say 71.
      const kept = '/services?per_page=3';
      expect(await streamed()).toBe(true);
      expect(await posted()).toBe(true);
      expect(await pageIds(small, large)).toContain(SERVICE);
      const keptPage = await (await get(small, kept)).text();
      await withServiceRemovedUnmarked(async () => {
        expect(await streamed()).toBe(false);
        expect(await posted()).toBe(false);
        expect(await pageIds(small, large)).not.toContain(SERVICE);
        // A small page is kept within the same budget.
        expect(await (await get(small, kept)).text()).toBe(keptPage);
      });
    } finally {
      await small.close();
    }
  });

  it('keeps nothing with HSDS_RESPONSE_CACHE_MB=0', async () => {
    const none = await startTestApp({ HSDS_RESPONSE_CACHE_MB: '0' }, { sharing: app.testDatabase });
    try {
      expect((await get(none, RECORD)).status).toBe(200);
      await withServiceRemovedUnmarked(async () => {
        expect((await get(none, RECORD)).status).toBe(404);
      });
    } finally {
      await none.close();
    }
  });
});

describe('freshness', () => {
  it('serves a change imported by another process on every server sharing the database within a second', async () => {
    const original = (await (await get(app, RECORD)).json()) as Document;
    for (const server of [app, other]) {
      expect(((await (await get(server, RECORD)).json()) as Document).name).toBe(original.name);
      expect(await pageIds(server)).toContain(SERVICE);
    }
    const renamed = `${String(original.name)} (renamed)`;
    const input = path.join(workDir, 'renamed.ndjson');
    await writeFile(input, `${JSON.stringify({ ...original, name: renamed })}\n`);
    const cli = startScript(
      'scripts/import.ts',
      {
        MONGODB_URI: app.testDatabase.uri,
        HSDS_DB_NAME: app.testDatabase.db.databaseName,
        LOG_LEVEL: 'warn',
      },
      [input],
    );
    expect(await cli.exited, cli.output()).toBe(0);

    const imported = performance.now();
    const renamedOn = async (server: TestApp) => {
      const record = (await (await get(server, RECORD)).json()) as Document;
      const page = (await (await get(server, PAGE)).json()) as { contents: Document[] };
      return record.name === renamed && page.contents.find(({ id }) => id === SERVICE)?.name === renamed;
    };
    const waits: number[] = [];
    for (const server of [app, other]) {
      while (!(await renamedOn(server))) {
        if (performance.now() - imported > 5_000) throw new Error('the change was not served within 5 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      waits.push(performance.now() - imported);
    }
    expect(Math.max(...waits)).toBeLessThan(1_000);
  }, 60_000);
});
