/*
 * HTTP caching of the core read protocol (docs/profile.md, Caching): a strong ETag (a digest of the
 * body) and the configured Cache-Control on every buffered 200, 304 for a matching If-None-Match, a new
 * ETag once a record changes, Last-Modified on every single record; and gzip for large
 * responses when the client accepts it.
 */
import { once } from 'node:events';
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import {
  directoryClient,
  idsOf,
  LIST_PATHS,
  startSampleApp,
  type DirectoryClient,
  type Item,
} from '../support/directory-client.ts';
import { importLines } from '../support/import.ts';

/** Not the default, so that the header is seen to come from HSDS_CACHE_CONTROL. */
const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=30';
const SERVICE = 'efa9f0a1-71c2-5bcc-99e9-efb38d324476';
const SERVICE_AT_LOCATION = '4a0098fe-07a6-523d-a7dd-7dd24d3943af';
const ORGANIZATION = '10f8bcb3-f882-56db-84f7-645221c4be05';
/** A service of another organization, which only the Last-Modified tests change. */
const OTHER_SERVICE = '36f3c8d7-80f5-52e4-a53c-678d4f503e91';
const TERM = 'a4bf1ef4-fdab-5edf-b51f-300eace0ed79';

let app: TestApp;
let client: DirectoryClient;
/** Just before the sample directory was imported: the time of its records' first change, to the second. */
let imported: number;
/** Every GET of the read protocol that answers a buffered JSON 200. */
let targets: string[];
beforeAll(async () => {
  imported = Math.floor(Date.now() / 1000) * 1000;
  app = await startSampleApp({ HSDS_CACHE_CONTROL: CACHE_CONTROL });
  client = directoryClient(app.url);
  // Not `minimal`: like NDJSON it is streamed, and the profile gives ETags to buffered responses only.
  targets = ['/', ...LIST_PATHS, '/services?per_page=5&page=3&full=true'];
  targets.push(
    '/service_at_locations?postcode=98118&proximity=5000',
    '/organizations?full=true&full_service=true',
  );
  for (const path of LIST_PATHS) {
    for (const id of idsOf(await client.allItems(path))) targets.push(`${path}/${id}`);
  }
  targets.push(`/organizations/${ORGANIZATION}?full_service=true`);
}, 120_000);
afterAll(async () => app?.close());

const get = (target: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${target}`, { headers });

/** A strong entity tag: quoted, no W/ prefix (RFC 9110 8.8.3). */
const STRONG_ETAG = /^"[^"\s]+"$/;

describe('ETag and Cache-Control', () => {
  it('gives every JSON 200 a strong ETag and the configured Cache-Control; its tag gets a 304', async () => {
    expect(targets.length).toBeGreaterThan(250);
    for (const target of targets) {
      const response = await get(target);
      expect(response.status, target).toBe(200);
      expect(response.headers.get('content-type'), target).toMatch(/^application\/json/);
      const tag = response.headers.get('etag');
      expect(tag, target).toEqual(expect.stringMatching(STRONG_ETAG));
      expect(response.headers.get('cache-control'), target).toBe(CACHE_CONTROL);
      await response.arrayBuffer();

      const again = await get(target, { 'if-none-match': tag! });
      expect(again.status, target).toBe(304);
      expect(await again.text(), `${target}: a 304 has no body`).toBe('');
      expect(again.headers.get('etag'), target).toBe(tag);
      expect(again.headers.get('cache-control'), target).toBe(CACHE_CONTROL);
    }
  });

  it('compares If-None-Match weakly, accepts lists and *, and answers 200 to another tag', async () => {
    const response = await get(`/services/${SERVICE}`);
    const tag = response.headers.get('etag')!;
    const body = await response.text();
    for (const ifNoneMatch of [`W/${tag}`, `"stale", ${tag}`, '*']) {
      expect((await get(`/services/${SERVICE}`, { 'if-none-match': ifNoneMatch })).status, ifNoneMatch).toBe(
        304,
      );
    }
    const other = await get(`/services/${SERVICE}`, { 'if-none-match': '"something-else"' });
    expect(other.status).toBe(200);
    expect(await other.text()).toBe(body);
  });

  it('tags by content: the same body gets the same tag, a different body another', async () => {
    const tagOf = async (target: string) => {
      const response = await get(target);
      await response.arrayBuffer();
      return response.headers.get('etag');
    };
    expect(await tagOf('/services?per_page=3')).toBe(await tagOf('/services?per_page=3'));
    // POST answers the same list as GET, so the same bytes and the same tag.
    const post = await fetch(`${app.url}/services`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ per_page: 3 }),
    });
    expect(post.headers.get('etag')).toBe(await tagOf('/services?per_page=3'));
    await post.arrayBuffer();
    expect(await tagOf('/services?per_page=3&page=2')).not.toBe(await tagOf('/services?per_page=3'));
  });

  it('gives errors no ETag', async () => {
    for (const target of ['/services/no-such-id', '/services?page=0']) {
      const response = await get(target);
      expect(response.status, target).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('etag'), target).toBeNull();
      await response.arrayBuffer();
    }
  });
});

describe('Last-Modified', () => {
  it('is the last_modified of every service, and of the service of every service at location', async () => {
    for (const path of ['/services', '/service_at_locations']) {
      for (const id of idsOf(await client.allItems(path))) {
        const response = await get(`${path}/${id}`);
        const record = (await response.json()) as Item;
        const lastModified = (path === '/services' ? record : (record.service as Item))
          .last_modified as string;
        expect(response.headers.get('last-modified'), `${path}/${id}`).toBe(
          new Date(lastModified).toUTCString(),
        );
      }
    }
  });

  it('is when the record last changed for organizations, taxonomies and taxonomy terms', async () => {
    for (const path of ['/organizations', '/taxonomies', '/taxonomy_terms']) {
      const ids = idsOf(await client.allItems(path));
      expect(ids.length, path).toBeGreaterThan(0);
      for (const id of ids) {
        const response = await get(`${path}/${id}`);
        await response.arrayBuffer();
        const lastModified = Date.parse(response.headers.get('last-modified') ?? '');
        expect(lastModified, `${path}/${id}`).toBeGreaterThanOrEqual(imported);
        expect(lastModified, `${path}/${id}`).toBeLessThanOrEqual(Date.now());
      }
    }
  });

  it('is never later than now, whatever a publisher says', async () => {
    const original = await client.getJson<Item>(`/services/${OTHER_SERVICE}`);
    const future = '2999-01-01T00:00:00.000Z';
    expect((await importLines(app.database.db, [{ ...original, last_modified: future }])).rejected).toBe(0);
    const response = await get(`/services/${OTHER_SERVICE}`);
    expect(((await response.json()) as Item).last_modified).toBe(future);
    expect(Date.parse(response.headers.get('last-modified')!)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(response.headers.get('last-modified')!)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('compression', () => {
  /** A GET over node:http, which (unlike fetch) hands over the bytes as sent. */
  async function rawGet(target: string, headers: Record<string, string>, method = 'GET') {
    const outgoing = request(`${app.url}${target}`, { method, headers, agent: false });
    outgoing.end();
    const [response] = (await once(outgoing, 'response')) as [IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
  }
  const encodingOf = (headers: IncomingHttpHeaders) => headers['content-encoding'] ?? 'identity';

  for (const target of [
    '/services?full=true&per_page=1000',
    '/service_at_locations?format=ndjson&full=true',
  ]) {
    it(`gzips ${target} for a client that accepts it, to the same bytes`, async () => {
      const plain = await rawGet(target, { 'accept-encoding': 'identity' });
      const gzipped = await rawGet(target, { 'accept-encoding': 'gzip, deflate' });
      expect([plain.status, gzipped.status]).toEqual([200, 200]);
      expect(plain.body.length).toBeGreaterThan(100_000);
      expect(encodingOf(plain.headers)).toBe('identity');
      expect(encodingOf(gzipped.headers)).toBe('gzip');
      expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
      expect(gzipped.body.length).toBeLessThan(plain.body.length / 4);
      expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
      // No Accept-Encoding at all: the body as it is, still marked as varying with the header.
      const unasked = await rawGet(target, {});
      expect(encodingOf(unasked.headers)).toBe('identity');
      expect(unasked.headers.vary).toMatch(/accept-encoding/i);
      expect(unasked.body.equals(plain.body)).toBe(true);
    });
  }

  it('gives the compressed and the plain bytes each their own strong ETag; either validates the content', async () => {
    const target = '/services?full=true&per_page=1000';
    const plain = await rawGet(target, { 'accept-encoding': 'identity' });
    const gzipped = await rawGet(target, { 'accept-encoding': 'gzip' });
    const brotli = await rawGet(target, { 'accept-encoding': 'br' });
    const tags = [plain, gzipped, brotli].map((response) => response.headers.etag!);
    for (const tag of tags) expect(tag).toMatch(STRONG_ETAG);
    expect(new Set(tags).size).toBe(3);
    // A client holding either form gets a 304 naming the tag it holds, whatever it now accepts.
    for (const tag of tags) {
      for (const encoding of ['identity', 'gzip']) {
        const again = await rawGet(target, { 'accept-encoding': encoding, 'if-none-match': tag });
        expect([again.status, again.headers.etag, again.body.length], `${tag} ${encoding}`).toEqual([
          304,
          tag,
          0,
        ]);
      }
    }
    // A suffix naming no coding we send is not one of our tags.
    for (const suffix of ['.zstd', '.foo']) {
      const other = `${tags[0]!.slice(0, -1)}${suffix}"`;
      const again = await rawGet(target, { 'accept-encoding': 'gzip', 'if-none-match': other });
      expect([again.status, again.headers.etag], other).toEqual([200, tags[1]]);
    }
  });

  it('answers a HEAD with the header fields of the GET it stands for, in every coding', async () => {
    for (const target of [`/services/${SERVICE}`, '/services?full=true&per_page=1000']) {
      for (const encoding of ['identity', 'gzip', 'br']) {
        const get = await rawGet(target, { 'accept-encoding': encoding });
        const head = await rawGet(target, { 'accept-encoding': encoding }, 'HEAD');
        const fields = ({ headers }: typeof get) => [
          headers['content-encoding'],
          headers.etag,
          headers.vary,
          headers['content-type'],
          headers['content-length'],
        ];
        expect(encodingOf(get.headers), `${target} ${encoding}`).toBe(encoding);
        expect([head.status, ...fields(head)], `${target} ${encoding}`).toEqual([200, ...fields(get)]);
        expect(head.body.length).toBe(0);
      }
    }
  });

  it('leaves small responses uncompressed', async () => {
    const root = await rawGet('/', { 'accept-encoding': 'gzip' });
    expect(root.status).toBe(200);
    expect(encodingOf(root.headers)).toBe('identity');
    expect(JSON.parse(root.body.toString('utf8'))).toMatchObject({ version: '3.0' });
  });
});

describe('a changed record', () => {
  it('gets a new ETag and Last-Modified, and so do the lists and records that show it', async () => {
    const dependents = [
      `/services/${SERVICE}`,
      `/service_at_locations/${SERVICE_AT_LOCATION}`,
      `/organizations/${ORGANIZATION}?full_service=true`,
      `/services?organization_id=${ORGANIZATION}`,
    ];
    const before = new Map<string, string>();
    for (const target of dependents) {
      const response = await get(target);
      before.set(target, response.headers.get('etag')!);
      await response.arrayBuffer();
    }
    const original = await client.getJson<Item>(`/services/${SERVICE}`);
    // Without its old last_modified, so that the import stamps the change.
    const { last_modified: _previous, ...service } = original;
    const report = await importLines(app.database.db, [
      { ...service, description: `${original.description as string} Now open on Sundays too.` },
    ]);
    expect(report.rejected).toBe(0);

    for (const target of dependents) {
      const response = await get(target, { 'if-none-match': before.get(target)! });
      expect(response.status, `${target} after the change`).toBe(200);
      expect(response.headers.get('etag'), target).toMatch(STRONG_ETAG);
      expect(response.headers.get('etag'), target).not.toBe(before.get(target));
      expect(await response.text(), target).toContain('Now open on Sundays too.');
    }
    const changed = await get(`/services/${SERVICE}`);
    const { last_modified } = (await changed.json()) as Item;
    expect(Date.parse(last_modified as string)).toBeGreaterThan(Date.parse(original.last_modified as string));
    expect(changed.headers.get('last-modified')).toBe(new Date(last_modified as string).toUTCString());
  });

  it('moves the Last-Modified of its organization and of a changed term, not of an unchanged one', async () => {
    const lastModifiedOf = async (target: string) => {
      const response = await get(target);
      await response.arrayBuffer();
      return Date.parse(response.headers.get('last-modified')!);
    };
    const dated = [`/organizations/${ORGANIZATION}`, `/organizations/${ORGANIZATION}?full_service=true`];
    const before = await Promise.all([...dated, `/taxonomy_terms/${TERM}`].map(lastModifiedOf));
    // HTTP dates count seconds: the change is made in a second after every time read above.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    const changeSecond = Math.floor(Date.now() / 1000) * 1000;

    const service = await client.getJson<Item>(`/services/${SERVICE}`);
    const { last_modified: _stamped, ...content } = service;
    await importLines(app.database.db, [{ ...content, name: `${service.name as string} (Rainier)` }]);
    for (const [index, target] of dated.entries()) {
      const after = await lastModifiedOf(target);
      expect(after, target).toBeGreaterThanOrEqual(changeSecond);
      expect(after, target).toBeGreaterThan(before[index]!);
    }

    const term = await client.getJson<Item>(`/taxonomy_terms/${TERM}`);
    const unchanged = await importLines(app.database.db, [term]);
    expect(unchanged.unchanged).toBe(1);
    expect(await lastModifiedOf(`/taxonomy_terms/${TERM}`)).toBe(before[2]);
    await importLines(app.database.db, [{ ...term, description: 'Food banks and pantries.' }]);
    expect(await lastModifiedOf(`/taxonomy_terms/${TERM}`)).toBeGreaterThanOrEqual(changeSecond);
  });
});
