/*
 * Harvesting another HSDS 3.0 API (issue #21): one instance of this server into another on loopback,
 * every record compared as served; an upstream change harvested incrementally; an upstream deletion
 * harvested with a replace; and a small feed written here that serves only the REQUIRED endpoints, with
 * paging limits of its own and injected faults (a 500, a 429 with Retry-After, a slow page, a truncated
 * body, an invalid record), and one that never answers.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceNdjsonChunks } from '../../scripts/generator/ndjson-chunks.ts';
import { harvest } from '../../src/harvest/harvest.ts';
import type { Json } from '../../src/json.ts';
import { appsOnOneServer, type TestApp } from '../support/app.ts';
import { importLines } from '../support/import.ts';
import { listening, requiredOnlyFeed, sendJson } from '../support/fake-feed.ts';

const RESOURCES = ['services', 'organizations', 'service_at_locations', 'taxonomies', 'taxonomy_terms'];

const apps = appsOnOneServer();
beforeAll(() => apps.start());
afterAll(() => apps.close());
const freshApp = (stopping?: AbortSignal) => apps.fresh(stopping);

const generated = [...serviceNdjsonChunks(30, 9)]
  .join('')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Json);

/** Every record an app serves, parsed, by `resource/id`. */
async function servedDirectory(app: TestApp): Promise<Record<string, unknown>> {
  const records: Record<string, unknown> = {};
  for (const resource of RESOURCES) {
    const stored = await app.database.db
      .collection(resource)
      .find({}, { projection: { id: 1 } })
      .toArray();
    for (const { id } of stored) {
      const response = await fetch(`${app.url}/${resource}/${id as string}`);
      expect(response.status).toBe(200);
      records[`${resource}/${id as string}`] = await response.json();
    }
  }
  return records;
}

describe('harvesting this server into another', () => {
  it('copies every record, then follows a change incrementally and a deletion with a replace', async () => {
    const upstream = await freshApp();
    const downstream = await freshApp();
    await importLines(upstream.db, generated, { source: 'county' });

    const first = await harvest(downstream.db, upstream.app.url);
    expect(first).toMatchObject({ rejected: 0, source: new URL(upstream.app.url).host });
    expect(first.harvest).toMatchObject({ servicesBy: 'ndjson', warnings: [] });
    expect(first.harvest.modifiedAfter).toBeUndefined();
    expect(await servedDirectory(downstream.app)).toEqual(await servedDirectory(upstream.app));

    // Upstream, a service changes (its publisher's last_modified with it): the next harvest asks only
    // for what changed since the last one began.
    const changed = { ...generated[0]!, name: 'Renamed Pantry', last_modified: new Date().toISOString() };
    await importLines(upstream.db, [changed], { source: 'county' });
    const second = await harvest(downstream.db, upstream.app.url);
    expect(second.harvest.modifiedAfter).toEqual(expect.any(String));
    expect(second.byType.service).toEqual({ inserted: 0, updated: 1, unchanged: 0, rejected: 0 });
    expect(await servedDirectory(downstream.app)).toEqual(await servedDirectory(upstream.app));

    // Upstream, a full refresh drops a service; a replacing harvest drops it downstream too.
    const dropped = generated[1]!.id as string;
    await importLines(upstream.db, [changed, ...generated.slice(2)], {
      source: 'county',
      replace: { force: true },
    });
    const third = await harvest(downstream.db, upstream.app.url, { replace: { force: true } });
    expect(third.harvest.modifiedAfter).toBeUndefined();
    expect(third.replace?.refused).toBeUndefined();
    expect((await fetch(`${downstream.app.url}/services/${dropped}`)).status).toBe(410);
    expect(await servedDirectory(downstream.app)).toEqual(await servedDirectory(upstream.app));
  }, 120_000);
});

describe('harvesting a feed of the required endpoints only', () => {
  it('lists, fetches each record, rides out its faults and names the record it rejects', async () => {
    const { db } = await freshApp();
    const invalid: Json = { ...generated[12]!, name: undefined };
    const services = generated.map((service, index) => (index === 12 ? invalid : service));
    const seen = { headers: [] as string[] };
    const feed = requiredOnlyFeed(services, seen);
    const url = await listening(feed);
    try {
      const started = Date.now();
      const report = await harvest(db, url, {
        source: 'required-only',
        headers: { Authorization: 'Bearer s3cret' },
        firstRetryMs: 20,
      });
      // The 429's Retry-After (1 s) was waited out, not the 20 ms of the client's own backoff.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(report.harvest).toMatchObject({ servicesBy: 'records' });
      expect(report.harvest.unreadable).toBeUndefined();
      expect(report.harvest.warnings).toEqual([
        expect.stringMatching(/organizations answered 404: skipped/),
        expect.stringMatching(/taxonomies answered 404: skipped/),
        expect.stringMatching(/taxonomy_terms answered 404: skipped/),
      ]);
      expect(report.byType.service).toMatchObject({ inserted: 29, rejected: 1 });
      expect(report.rejections[0]!.at).toBe(`${url}services/${invalid.id as string}`);
      expect(await db.collection('services').countDocuments()).toBe(29);
      expect(new Set(seen.headers)).toEqual(new Set(['Bearer s3cret']));
    } finally {
      feed.close();
    }
  }, 60_000);

  it('stops with the feed unreadable after repeated failures, keeping what it loaded and deleting nothing', async () => {
    const { db } = await freshApp();
    await importLines(db, generated.slice(0, 3), { source: 'failing' });
    let requests = 0;
    const feed = createServer((request, response) => {
      requests++;
      if (request.url === '/') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        return response.end('{"version":"3.0"}');
      }
      response.writeHead(503, { 'Content-Type': 'application/json' });
      response.end('{}');
    });
    const url = await listening(feed);
    try {
      const report = await harvest(db, url, {
        source: 'failing',
        replace: { force: true },
        attempts: 3,
        firstRetryMs: 10,
      });
      expect(report.harvest.unreadable).toMatch(/answered 503, 3 times/);
      expect(report.replace?.refused).toMatch(/rejected or could not be read/);
      expect(await db.collection('services').countDocuments()).toBe(3);
      // The root, the NDJSON probe (asked once), the first page three times.
      expect(requests).toBe(1 + 1 + 3);
      // Not a successful harvest: the next one is not incremental.
      expect(await db.collection('import.harvests').countDocuments()).toBe(0);
    } finally {
      feed.close();
    }
  });

  it('reads full pages under a path prefix without total_pages, and refuses a list that does not page', async () => {
    const { db } = await freshApp();
    let ignorePaging = false;
    const feed = createServer((request, response) => {
      const url = new URL(request.url!, 'http://feed');
      const send = (status: number, body: unknown) => sendJson(response, status, body);
      if (url.pathname === '/api/') return send(200, { version: '3.0' });
      if (url.pathname !== '/api/services') return send(404, {});
      if (url.searchParams.get('format') === 'ndjson') return send(400, { error: 'no such format' });
      const page = ignorePaging ? 1 : Number(url.searchParams.get('page'));
      // At most 4 a page, full records, and no total_pages: read until a short page.
      send(200, { contents: generated.slice((page - 1) * 4, page * 4) });
    });
    const base = await listening(feed);
    try {
      const report = await harvest(db, `${base}api`, { source: 'prefixed' });
      expect(report.harvest).toMatchObject({ servicesBy: 'full pages' });
      expect(report.harvest.unreadable).toBeUndefined();
      expect(report.byType.service).toMatchObject({ inserted: 30, rejected: 0 });

      ignorePaging = true;
      const again = await harvest(db, `${base}api/`, { source: 'prefixed', full: true });
      expect(again.harvest.unreadable).toMatch(/the same page again: the list does not page/);
    } finally {
      feed.close();
    }
  });

  it('replaces what a feed dropped, but reads a list that repeats an item as untrustworthy and a list not offered as unread', async () => {
    const { app, db } = await freshApp();
    const terms = [
      { id: '8b3a0bd6-93c7-4d1e-9d43-1f0c3b1f0a11', name: 'Food', description: 'Food.' },
      { id: '8b3a0bd6-93c7-4d1e-9d43-1f0c3b1f0a12', name: 'Housing', description: 'Housing.' },
    ];
    const feed = { services: generated, shifted: false, termsOffered: true };
    const server = createServer((request, response) => {
      const url = new URL(request.url!, 'http://feed');
      const send = (status: number, body: unknown) => sendJson(response, status, body);
      if (url.pathname === '/') return send(200, { version: '3.0' });
      const page = Number(url.searchParams.get('page'));
      const paged = (items: unknown[]) => {
        const contents = items.slice((page - 1) * 4, page * 4);
        // Paging by offset while a record moves up the order: page 2 opens with page 1's last item.
        if (feed.shifted && page === 2) contents[0] = items[3];
        return { total_items: items.length, total_pages: Math.ceil(items.length / 4), contents };
      };
      if (url.pathname === '/services') {
        if (url.searchParams.get('format') === 'ndjson') return send(400, { error: 'no such format' });
        return send(200, paged(feed.services));
      }
      if (url.pathname === '/taxonomy_terms' && feed.termsOffered) return send(200, paged(terms));
      send(404, {});
    });
    const base = await listening(server);
    const status = async (path: string) => (await fetch(`${app.url}${path}`)).status;
    try {
      const first = await harvest(db, base, { source: 'shifting' });
      expect(first.byType).toMatchObject({
        service: { inserted: 30, rejected: 0 },
        taxonomy_term: { rejected: 0 },
      });
      const skipped = generated[4]!.id as string;

      // Page 2 repeats page 1's last service and skips the one it should open with: the count is right,
      // the list is not, and a replace deletes nothing.
      feed.shifted = true;
      const shifted = await harvest(db, base, { source: 'shifting', replace: {} });
      expect(shifted.harvest.unreadable).toMatch(/again on page 2: the list changed while it was read/);
      expect(shifted.replace?.refused).toMatch(/rejected or could not be read/);
      expect(await status(`/services/${skipped}`)).toBe(200);

      // The terms' list answers 404 and a service is dropped: the service goes, the terms (which no
      // service shows) stay, as a list not read is not a list of none.
      feed.shifted = false;
      feed.termsOffered = false;
      const dropped = generated[29]!.id as string;
      feed.services = generated.slice(0, 29);
      const replaced = await harvest(db, base, { source: 'shifting', replace: {} });
      expect(replaced.harvest.unreadable).toBeUndefined();
      expect(replaced.harvest.warnings).toEqual(
        expect.arrayContaining([expect.stringMatching(/taxonomy_terms answered 404: skipped/)]),
      );
      expect(replaced.replace?.refused).toBeUndefined();
      expect(await status(`/services/${dropped}`)).toBe(410);
      for (const term of terms) expect(await status(`/taxonomy_terms/${term.id}`)).toBe(200);
      // What only the dropped service showed goes with it, its list unread or not: its organization (the
      // feed has no /organizations), which no other service shows.
      const organization = (generated[29]!.organization as Json).id as string;
      expect(generated.slice(0, 29).map((service) => (service.organization as Json).id)).not.toContain(
        organization,
      );
      expect(await status(`/organizations/${organization}`)).toBe(410);
    } finally {
      server.close();
    }
  });

  it('asks a strict feed less on its optional lists, and skips one that refuses every asking', async () => {
    const { db } = await freshApp();
    const asked: string[] = [];
    const terms = [
      { id: '8b3a0bd6-93c7-4d1e-9d43-1f0c3b1f0a01', name: 'Food', description: 'Food.' },
      { id: '8b3a0bd6-93c7-4d1e-9d43-1f0c3b1f0a02', name: 'Housing', description: 'Housing.' },
    ];
    const feed = createServer((request, response) => {
      const url = new URL(request.url!, 'http://feed');
      asked.push(`${url.pathname}${url.search}`);
      const send = (status: number, body: unknown) => sendJson(response, status, body);
      const onlyPage = [...url.searchParams.keys()].every((name) => name === 'page');
      if (url.pathname === '/') return send(200, { version: '3.0' });
      if (url.pathname === '/services') {
        if (url.searchParams.get('format') === 'ndjson') return send(400, { error: 'no such format' });
        return send(200, { total_pages: 1, contents: generated.slice(0, 3) });
      }
      // As the official document lists its parameters: `page` and `per_page`, no `full`.
      if (url.pathname === '/taxonomy_terms') {
        if (!onlyPage) return send(400, { error: `unknown parameter in ${url.search}` });
        return send(200, { total_pages: 1, contents: terms });
      }
      // Refuses whatever it is asked.
      if (url.pathname === '/taxonomies') return send(400, { error: 'no' });
      send(404, {});
    });
    const base = await listening(feed);
    try {
      const report = await harvest(db, base, { source: 'strict' });
      expect(report.harvest.unreadable).toBeUndefined();
      expect(report.byType, JSON.stringify(report)).toMatchObject({
        taxonomy_term: { inserted: 2, rejected: 0 },
      });
      expect(asked.filter((path) => path.startsWith('/taxonomy_terms'))).toEqual([
        '/taxonomy_terms?page=1&per_page=100&full=true',
        '/taxonomy_terms?page=1&full=true',
        '/taxonomy_terms?page=1',
      ]);
      expect(report.harvest.warnings).toEqual(
        expect.arrayContaining([expect.stringMatching(/\/taxonomies answered 400: skipped/)]),
      );
    } finally {
      feed.close();
    }
  });

  it('gives up on a feed that never answers, after its timeout, each attempt', async () => {
    const { db } = await freshApp();
    const feed = createServer((request, response) => {
      if (request.url === '/') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end('{"version":"3.0"}');
      }
      // Anything else: never an answer.
    });
    const url = await listening(feed);
    try {
      const report = await harvest(db, url, { timeoutMs: 200, attempts: 2, firstRetryMs: 10 });
      expect(report.harvest.unreadable).toMatch(/no answer in time, 2 times/);
    } finally {
      feed.closeAllConnections();
      feed.close();
    }
  });
});
