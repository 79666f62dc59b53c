/*
 * format=ndjson (spec 4.1 rule 4, 8.2): every match, unpaged, one JSON object a line; and a client that
 * goes away mid-stream stops the query behind it (the server-side cursor is closed, not left to time out).
 */
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceNdjsonChunks } from '../../scripts/generator/ndjson-chunks.ts';
import { documentCollection } from '../../src/db/collections.ts';
import { KeptOrganizations, keptByStreams, SharedBytes } from '../../src/db/spliced-organization.ts';
import { importRecords } from '../../src/ingest/import.ts';
import { readNdjson } from '../../src/ingest/sources/ndjson.ts';
import type { TestApp } from '../support/app.ts';
import {
  directoryClient,
  LIST_PATHS,
  startSampleApp,
  withQuery,
  type DirectoryClient,
  type Item,
} from '../support/directory-client.ts';
import { commandsRun } from '../support/commands-run.ts';
import { openCursors } from '../support/open-cursors.ts';
import { waitFor } from '../support/process.ts';

let app: TestApp;
let client: DirectoryClient;
beforeAll(async () => {
  app = await startSampleApp();
  client = directoryClient(app.url);
}, 120_000);
afterAll(async () => app?.close());

describe('NDJSON of the sample directory', () => {
  /** Every item of every page, at a page size that leaves a partial last page. */
  async function pagedItems(path: string, parameters: Record<string, string | boolean>) {
    const items: Item[] = [];
    for (let page = 1; ; page++) {
      const { contents, last_page } = await client.getJson(
        withQuery(path, { ...parameters, per_page: 20, page }),
      );
      items.push(...contents);
      if (last_page) return items;
    }
  }

  for (const path of LIST_PATHS) {
    it(`streams exactly the union of all pages of ${path}, with and without full`, async () => {
      const cases: Record<string, string | boolean>[] = [{}, { full: true }, { search: 'food' }];
      for (const parameters of cases) {
        const streamed = await client.ndjsonItems(withQuery(path, { ...parameters, format: 'ndjson' }));
        expect(streamed, JSON.stringify(parameters)).toEqual(await pagedItems(path, parameters));
      }
    });
  }

  it('ignores page and per_page', async () => {
    const everything = await client.ndjsonItems('/services?format=ndjson');
    expect(everything).toHaveLength(72);
    expect(await client.ndjsonItems('/services?format=ndjson&per_page=1&page=3')).toEqual(everything);
    expect(await client.ndjsonItems('/services?format=ndjson&per_page=1000')).toEqual(everything);
  });

  it('answers POST with format ndjson in the body like GET', async () => {
    const response = await fetch(`${app.url}/service_at_locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'ndjson', postcode: '98118', per_page: 1 }),
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await response.text()).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as Item)).toEqual(
      await client.ndjsonItems('/service_at_locations?format=ndjson&postcode=98118'),
    );
  });

  it('sends application/x-ndjson without an ETag (its bytes are not known before they are sent)', async () => {
    const response = await fetch(`${app.url}/taxonomy_terms?format=ndjson`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(response.headers.get('etag')).toBeNull();
    await response.arrayBuffer();
  });
});

describe('a client that disconnects early', () => {
  /** Large enough that the stream outlasts its first batches: the server-side cursor is still open when the client goes away. */
  const GENERATED_SERVICES = 2000;

  beforeAll(async () => {
    const lines = Readable.from(serviceNdjsonChunks(GENERATED_SERVICES, 7));
    const report = await importRecords(app.database.db, readNdjson(lines, 'generated.ndjson'));
    expect(report.rejected).toBe(0);
  }, 120_000);

  /** Starts a request and resolves with the response once its first bytes have arrived, paused. */
  async function firstBytes(
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ response: IncomingMessage; received: number }> {
    const outgoing = request(`${app.url}${path}`, { agent: false, headers });
    outgoing.end();
    const [response] = (await once(outgoing, 'response')) as [IncomingMessage];
    const [chunk] = (await once(response, 'data')) as [Buffer];
    response.pause();
    return { response, received: chunk.length };
  }

  it.each([
    ['/services?format=ndjson&full=true', documentCollection.service],
    ['/service_at_locations?format=ndjson&full=true', documentCollection.service_at_location],
    // Nearest first: a $geoNear aggregation's cursor, over every service at location (the whole earth).
    [
      '/service_at_locations?format=ndjson&full=true&postcode=98118&proximity=20000000',
      documentCollection.service_at_location,
    ],
    // Organizations with their services joined a batch at a time.
    ['/organizations?format=ndjson&full=true&full_service=true', documentCollection.organization],
  ])('closes the server-side cursor of %s, and the app keeps answering', async (path, collection) => {
    const before = await openCursors(app.testDatabase, collection);
    const { response, received } = await firstBytes(path);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);

    // While the client holds the stream paused, the query's cursor stays open on the server.
    expect(await openCursors(app.testDatabase, collection), 'a cursor is open mid-stream').toBe(before + 1);

    response.socket.destroy();
    await waitFor(
      async () => (await openCursors(app.testDatabase, collection)) === before,
      5000,
      'the server-side cursor to be closed after the client disconnected',
    );
    // The response was cut short: far fewer bytes than the thousands of records streamed.
    expect(received).toBeLessThan(GENERATED_SERVICES * 1000);

    const { total_items } = await client.getJson('/services?per_page=1');
    expect(total_items).toBe(72 + GENERATED_SERVICES);
  });

  it('closes the cursor of a compressed stream the client leaves, and of a HEAD, which reads none', async () => {
    const path = '/services?format=ndjson&full=true';
    const collection = documentCollection.service;
    const before = await openCursors(app.testDatabase, collection);
    for (const encoding of ['gzip', 'br']) {
      const { response } = await firstBytes(path, { 'accept-encoding': encoding });
      expect(response.headers['content-encoding']).toBe(encoding);
      response.socket.destroy();
      await waitFor(
        async () => (await openCursors(app.testDatabase, collection)) === before,
        5000,
        `the cursor of a ${encoding} stream to be closed after the client disconnected`,
      );
    }
    for (const encoding of ['gzip', 'identity']) {
      const head = await fetch(`${app.url}${path}`, {
        method: 'HEAD',
        headers: { 'accept-encoding': encoding },
      });
      expect(head.status).toBe(200);
      await waitFor(
        async () => (await openCursors(app.testDatabase, collection)) === before,
        5000,
        `the cursor of a HEAD (${encoding}) to be closed once answered`,
      );
    }
    expect(keptByStreams.inUse).toBe(0);
  });

  it('gives back the organizations a stream of full services kept when it ends, finished or cut short', async () => {
    expect(keptByStreams.inUse).toBe(0);
    const { response } = await firstBytes('/services?format=ndjson&full=true');
    await waitFor(async () => keptByStreams.inUse > 0, 5000, 'organizations kept mid-stream');
    response.socket.destroy();
    await waitFor(async () => keptByStreams.inUse === 0, 5000, 'the organizations given back');

    expect(await client.ndjsonItems('/services?format=ndjson&full=true')).toHaveLength(
      72 + GENERATED_SERVICES,
    );
    expect(keptByStreams.inUse).toBe(0);
  });

  it('keeps organizations for streams within the budget they share, every form still served', async () => {
    const organizations = app.database.db.collection(documentCollection.organization);
    const ids = (await organizations.find({}, { projection: { _id: 0, id: 1 } }).toArray()).map(
      ({ id }) => id as string,
    );
    expect(ids.length).toBeGreaterThan(50);
    // What one holder keeps of them all, measured against a budget that holds them.
    const measure = new SharedBytes(Number.POSITIVE_INFINITY);
    await new KeptOrganizations(measure).forms(app.database.db, ids);
    const all = measure.inUse;
    expect(all).toBeGreaterThan(0);

    // Room for exactly that: the first takes it all, the second keeps nothing until it is given back.
    const shared = new SharedBytes(all);
    const [first, second] = [new KeptOrganizations(shared), new KeptOrganizations(shared)];
    expect((await first.forms(app.database.db, ids)).size).toBe(ids.length);
    expect(shared.inUse).toBe(all);
    expect((await second.forms(app.database.db, ids)).size).toBe(ids.length);
    expect(shared.inUse).toBe(all);
    second.release();
    expect(shared.inUse).toBe(all);
    first.release();
    expect(shared.inUse).toBe(0);
    expect((await second.forms(app.database.db, ids)).size).toBe(ids.length);
    expect(shared.inUse).toBe(all);
    second.release();
    expect(shared.inUse).toBe(0);
  });

  it('reads the database in batches of about a megabyte, not in its own of up to 16 MiB', async () => {
    const count = 72 + GENERATED_SERVICES;
    const getMores = async (path: string) => {
      const before = await commandsRun(app.testDatabase, 'getMore');
      const items = path.includes('minimal')
        ? await client.getJson<unknown[]>(path)
        : await client.ndjsonItems(path);
      expect(items, path).toHaveLength(count);
      return (await commandsRun(app.testDatabase, 'getMore')) - before;
    };
    // List items (~1.5 KB) 1,000 at a time, full records (~10 KB) 100 at a time, `minimal` entries 10,000
    // at a time. The database's own batches (101 documents, then up to 16 MiB) would take all the items in
    // one getMore, all the full records in two, and all the `minimal` entries in one.
    const expected = {
      '/services?format=ndjson': Math.ceil(count / 1_000) - 1,
      '/services?format=ndjson&full=true': Math.ceil(count / 100) - 1,
      '/services?minimal=true': 0,
    };
    for (const [path, batches] of Object.entries(expected)) await expectGetMores(path, batches, getMores);
  });

  it('reads nearest-first streams ($geoNear) in the same batches', async () => {
    const near = '/service_at_locations?postcode=98118&proximity=100000';
    const { total_items: count } = await client.getJson(`${near}&per_page=1`);
    // Enough services at location for the batches to differ from the database's own (101, then the rest).
    expect(count).toBeGreaterThan(200);
    const getMores = async (path: string) => {
      const before = await commandsRun(app.testDatabase, 'getMore');
      expect(await client.ndjsonItems(path), path).toHaveLength(count);
      return (await commandsRun(app.testDatabase, 'getMore')) - before;
    };
    await expectGetMores(`${near}&format=ndjson`, Math.ceil(count / 1_000) - 1, getMores);
    await expectGetMores(`${near}&format=ndjson&full=true`, Math.ceil(count / 100) - 1, getMores);
  });

  /**
   * Counted server-wide: exactly on the stand-in, which serves this test file alone; at least as many on
   * a MongoDB that other test files share.
   */
  async function expectGetMores(path: string, batches: number, getMores: (path: string) => Promise<number>) {
    if (app.testDatabase.kind === 'standin') expect(await getMores(path), path).toBe(batches);
    else expect(await getMores(path), path).toBeGreaterThanOrEqual(batches);
  }

  it('streams every one of the services to a client that reads to the end', async () => {
    const streamed = await client.ndjsonItems('/services?format=ndjson');
    expect(streamed).toHaveLength(72 + GENERATED_SERVICES);
    expect(await openCursors(app.testDatabase, documentCollection.service)).toBe(0);
  });
});
