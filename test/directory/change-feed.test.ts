/*
 * The change feed (issue #20, part 4): `GET /changes` lists each change to what the directory serves, in
 * commit order, as the OpenAPI document describes; an unchanged re-import adds nothing; each record keeps
 * its latest change; deletions are listed, and dropped past their retention with a 410 for the cursors
 * that missed them; changes a writer recorded but did not publish stay unseen until an import publishes
 * them; `Accept: text/event-stream` streams them live, resumed after `Last-Event-ID`.
 */
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_CLOCK, CHANGES } from '../../src/db/collections.ts';
import { rebuildAllDocuments } from '../../src/ingest/rebuild-all.ts';
import { purgeChanges, recordChanges } from '../../src/db/change-feed.ts';
import { appsOnOneServer, type TestApp } from '../support/app.ts';
import { importLines } from '../support/import.ts';
import { defaultDocument } from '../openapi/default-document.ts';
import { documentValidator } from '../openapi/document-validator.ts';
import { responseSchemaPath } from '../openapi/response-schema.ts';

const document = defaultDocument('http://localhost');
const validate = documentValidator(document);

const apps = appsOnOneServer();
beforeAll(() => apps.start());
afterAll(() => apps.close());
const freshApp = (stopping?: AbortSignal) => apps.fresh(stopping);

const id = (n: number) => `c4a90000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const organization = (n: number) => ({
  id: id(100 + n),
  name: `Organization ${n}`,
  description: 'Help for families.',
});
/** Service `n` of organization `org`, offered online. */
const service = (n: number, org: number, name = `Service ${n}`) => ({
  id: id(n),
  name,
  status: 'active',
  organization: organization(org),
  service_at_locations: [{ id: id(600 + n), location: { id: id(200 + n), location_type: 'virtual' } }],
});
const S1 = service(1, 1);
const S2 = service(2, 1);
const S3 = service(3, 2);

const load = (db: Db, records: object[], options: { source?: string; replace?: boolean } = {}) =>
  importLines(db, records, {
    source: options.source ?? 'county',
    ...(options.replace ? { replace: { force: true } } : {}),
  });

interface Line {
  cursor: string;
  resource: string;
  id: string;
  op: string;
  changed_at: string;
  source?: string;
}

/** `GET /changes` with `query`, checked against the document; its lines. */
async function changes(app: TestApp, query = ''): Promise<Line[]> {
  const response = await fetch(`${app.url}/changes${query}`);
  expect(response.status, query).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const text = await response.text();
  if (text === '') return [];
  expect(response.headers.get('content-type')).toBe('application/x-ndjson');
  const at = responseSchemaPath(document, '/changes', 'get', 200, 'application/x-ndjson');
  return text
    .trim()
    .split('\n')
    .map((line) => {
      expect(validate(at, JSON.parse(line)).errors).toEqual([]);
      return JSON.parse(line) as Line;
    });
}

/** A problem answer of `/changes`, checked against the document. */
async function problem(app: TestApp, query: string, status: number, init: RequestInit = {}) {
  const response = await fetch(`${app.url}/changes${query}`, init);
  expect(response.status, query).toBe(status);
  const body = (await response.json()) as Record<string, unknown>;
  const at = responseSchemaPath(document, '/changes', 'get', status, 'application/problem+json');
  expect(validate(at, body).errors).toEqual([]);
  return body;
}

const keyOf = ({ resource, id }: Line) => `${resource}/${id}`;
const summary = (lines: Line[]) => lines.map((line) => `${line.op} ${keyOf(line)}`).sort();
const placeOf = (cursor: string) => Number(cursor.split('.')[1]);
const last = (lines: Line[]) => lines.at(-1)!.cursor;

/** Every record the directory serves, as `resource/id`. */
async function servedKeys(db: Db): Promise<string[]> {
  const keys: string[] = [];
  for (const resource of [
    'services',
    'organizations',
    'service_at_locations',
    'taxonomies',
    'taxonomy_terms',
  ]) {
    const documents = await db
      .collection(resource)
      .find({}, { projection: { id: 1 } })
      .toArray();
    keys.push(...documents.map((stored) => `${resource}/${stored.id as string}`));
  }
  return keys.sort();
}

describe('GET /changes', () => {
  it('lists every record an import made served, once, as upserts in commit order with their source', async () => {
    const { app, db } = await freshApp();
    expect(await changes(app)).toEqual([]); // nothing yet: up to date
    await load(db, [S1, S2, S3]);
    const lines = await changes(app);
    expect(lines.map(keyOf).sort()).toEqual(await servedKeys(db));
    expect(lines.length).toBe(8); // 3 services, 3 services at location, 2 organizations
    expect(new Set(lines.map((line) => `${line.op} ${line.source}`))).toEqual(new Set(['upsert county']));
    const places = lines.map((line) => placeOf(line.cursor));
    expect(places).toEqual([...places].sort((a, b) => a - b));
    expect(await changes(app, `?after=${last(lines)}`)).toEqual([]);
  });

  it('adds nothing for an unchanged re-import, and only what a change changed, each record listed once', async () => {
    const { app, db } = await freshApp();
    await load(db, [S1, S2, S3]);
    const first = await changes(app);
    await load(db, [S1, S2, S3], { source: 'state' }); // unchanged, though another source loads it too
    expect(await changes(app, `?after=${last(first)}`)).toEqual([]);

    await load(db, [{ ...S1, name: 'Food Pantry' }]);
    const changed = await changes(app, `?after=${last(first)}`);
    // The service, and its service at location, which shows it; not its organization (ids only).
    expect(summary(changed)).toEqual([`upsert service_at_locations/${id(601)}`, `upsert services/${S1.id}`]);
    // Read from the start, each record is still listed once: its earlier entry was dropped.
    const all = await changes(app);
    expect(all.map(keyOf).sort()).toEqual(await servedKeys(db));
    expect(all.slice(-2)).toEqual(changed);
  });

  it('changes an organization when a service joins or leaves it', async () => {
    const { app, db } = await freshApp();
    await load(db, [S1, S2, S3]);
    const before = await changes(app);
    await load(db, [service(1, 2)]); // S1 moves from organization 1 to 2
    expect(summary(await changes(app, `?after=${last(before)}`))).toEqual([
      `upsert organizations/${id(101)}`,
      `upsert organizations/${id(102)}`,
      `upsert service_at_locations/${id(601)}`,
      `upsert services/${S1.id}`,
    ]);
    const organizationServices = await fetch(`${app.url}/organizations/${id(102)}`).then(
      async (response) => ((await response.json()) as { services: { id: string }[] }).services,
    );
    expect(organizationServices.map((listed) => listed.id).sort()).toEqual([S1.id, S3.id]);
  });

  it('lists what a replace deleted as deletes, which replace the records’ upserts', async () => {
    const { app, db } = await freshApp();
    await load(db, [S1, S2, S3]);
    const before = await changes(app);
    await load(db, [S1, S2], { replace: true });
    const deleted = [
      `delete organizations/${id(102)}`,
      `delete service_at_locations/${id(603)}`,
      `delete services/${S3.id}`,
    ];
    expect(summary(await changes(app, `?after=${last(before)}`))).toEqual(deleted);
    const all = await changes(app);
    expect(summary(all.filter((line) => line.op === 'delete'))).toEqual(deleted);
    expect(
      all
        .filter((line) => line.op === 'upsert')
        .map(keyOf)
        .sort(),
    ).toEqual(await servedKeys(db));
    expect((await fetch(`${app.url}/services/${S3.id}`)).status).toBe(410);
  });

  it('pages with after and limit', async () => {
    const { app, db } = await freshApp();
    await load(db, [S1, S2, S3]);
    const all = await changes(app);
    const paged: Line[] = [];
    let after = '';
    for (;;) {
      const page = await changes(app, `?limit=3${after}`);
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(3);
      paged.push(...page);
      after = `&after=${last(page)}`;
    }
    expect(paged).toEqual(all);
  });

  it('answers a malformed request with a 400 naming the parameter', async () => {
    const { app } = await freshApp();
    expect(await problem(app, '?after=yesterday', 400)).toMatchObject({ errors: [{ parameter: 'after' }] });
    expect(await problem(app, '?limit=0', 400)).toMatchObject({ errors: [{ parameter: 'limit' }] });
    expect(await problem(app, '?limit=10001', 400)).toMatchObject({ errors: [{ parameter: 'limit' }] });
    expect(await problem(app, '?since=1', 400)).toMatchObject({ errors: [{ parameter: 'since' }] });
    expect(await problem(app, '?limit=1&limit=2', 400)).toMatchObject({
      errors: [{ parameter: 'limit', message: 'must be given once' }],
    });
  });

  it('answers 410 naming the oldest cursor kept for a cursor it cannot answer', async () => {
    const { app, db } = await freshApp();
    await load(db, [S1, S2, S3]);
    const loaded = await changes(app);
    const epoch = last(loaded).split('.')[0]!;
    const other = epoch === '00000000' ? '00000001' : '00000000';
    expect(await problem(app, `?after=${other}.1`, 410)).toMatchObject({ oldest_cursor: `${epoch}.0` });
    expect(await problem(app, `?after=${epoch}.999999`, 410)).toMatchObject({ oldest_cursor: `${epoch}.0` });

    await load(db, [S1, S2], { replace: true });
    const withDeletes = await changes(app);
    const deletes = withDeletes.filter((line) => line.op === 'delete');
    // The deletions past their retention are dropped: a cursor before them missed them.
    await db.collection(CHANGES).updateMany({ op: 'delete' }, { $set: { changed_at: new Date(0) } });
    await purgeChanges(db, 30);
    const horizon = `${epoch}.${placeOf(last(deletes))}`;
    const gone = await problem(app, `?after=${last(loaded)}`, 410);
    expect(gone).toMatchObject({ oldest_cursor: horizon });
    expect(gone.detail).toMatch(/dropped, past their retention/);
    expect(await changes(app, `?after=${horizon}`)).toEqual(
      withDeletes.filter((line) => placeOf(line.cursor) > placeOf(horizon)),
    );
    // Behind the horizon, yet kept until the next purge: a read that passed the check just before finds them.
    const cursorsOf = (lines: Line[]) => lines.map((line) => line.cursor);
    expect(cursorsOf((await changes(app)).filter((line) => line.op === 'delete'))).toEqual(
      cursorsOf(deletes),
    );
    await purgeChanges(db, 30);
    // From the start: the directory as it is, without the deletions dropped.
    expect((await changes(app)).map(keyOf).sort()).toEqual(await servedKeys(db));
  });

  it('is listed whole again by a rebuild once lost, the cursors of the lost feed answering 410', async () => {
    const { app, db } = await freshApp();
    await load(db, [S1, S2, S3]);
    const lost = await changes(app);
    await db.collection(CHANGES).drop();
    await db.collection(CHANGE_CLOCK).drop();
    expect(await changes(app)).toEqual([]);
    await rebuildAllDocuments(db);
    const rebuilt = await changes(app);
    expect(rebuilt.map(keyOf).sort()).toEqual(await servedKeys(db));
    expect(rebuilt.every((line) => line.op === 'upsert' && line.source === undefined)).toBe(true);
    await problem(app, `?after=${last(lost)}`, 410);
    // Run again, a rebuild that changes nothing lists nothing more.
    await rebuildAllDocuments(db);
    expect(await changes(app, `?after=${last(rebuilt)}`)).toEqual([]);
  });

  it('shows what a writer recorded and did not publish only as far as the documents bear it out', async () => {
    const { app, db } = await freshApp();
    await load(db, [S1, S2]);
    const before = await changes(app);
    // As a writer leaves them that died after recording its changes, before writing the documents: an
    // upsert of a record it never wrote, a delete of one it did not delete, an upsert of one served.
    await recordChanges(
      db,
      [
        { resource: 'services', id: S3.id, op: 'upsert' },
        { resource: 'services', id: S1.id, op: 'delete' },
        { resource: 'services', id: S2.id, op: 'upsert' },
      ],
      { at: new Date(), source: 'county' },
    );
    expect(await changes(app, `?after=${last(before)}`)).toEqual([]);
    // The next writer settles them before it publishes its own.
    await load(db, [service(4, 1)]);
    const after = await changes(app, `?after=${last(before)}`);
    expect(after.map(keyOf)).not.toContain(`services/${S3.id}`);
    expect(after.filter((line) => line.op === 'delete')).toEqual([]);
    expect(after[0]).toMatchObject({ resource: 'services', id: S2.id, op: 'upsert' });
    expect(after.map((line) => placeOf(line.cursor))).toEqual(
      [...after.map((line) => placeOf(line.cursor))].sort((a, b) => a - b),
    );
    expect(new Set((await changes(app)).map(keyOf))).toEqual(new Set(await servedKeys(db)));
  });

  it('lists a document too large to store as deleted, and its organization once written', async () => {
    const { app, db } = await freshApp();
    await load(db, [S1]);
    const before = await changes(app);
    const huge = { ...service(5, 3), description: 'Free groceries. '.repeat(600_000) };
    const report = await load(db, [huge]);
    expect(report.warnings).toEqual([expect.stringMatching(/too large/)]);
    expect(summary(await changes(app, `?after=${last(before)}`))).toEqual([
      `delete services/${huge.id}`,
      `upsert organizations/${id(103)}`,
      `upsert service_at_locations/${id(605)}`,
    ]);
    expect((await fetch(`${app.url}/services/${huge.id}`)).status).toBe(404);
    const organization = (await (await fetch(`${app.url}/organizations/${id(103)}`)).json()) as {
      services: unknown[];
    };
    expect(organization.services).toEqual([]);
  });
});

/** Reads server-sent events from a response body as they come. */
function eventReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    /** The next event's fields (`id`, `data`), or undefined once the stream ended. */
    async next(): Promise<Partial<Record<'id' | 'data', string>> | undefined> {
      for (;;) {
        const end = buffered.indexOf('\n\n');
        if (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (block.startsWith(':')) continue; // a heartbeat
          return Object.fromEntries(
            block
              .split('\n')
              .map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
          );
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffered += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe('GET /changes as server-sent events', () => {
  it('streams the changes, then live ones, resumes after Last-Event-ID, and ends when the server stops', async () => {
    const stopping = new AbortController();
    const { app, db } = await freshApp(stopping.signal);
    await load(db, [S1]);
    const stored = await changes(app);
    const response = await fetch(`${app.url}/changes`, { headers: { Accept: 'text/event-stream' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('content-encoding')).toBeNull();
    const events = eventReader(response);
    for (const line of stored)
      expect(await events.next()).toEqual({ id: line.cursor, data: JSON.stringify(line) });

    await load(db, [S2]);
    const live = (await events.next())!;
    expect(JSON.parse(live.data!)).toMatchObject({ resource: expect.any(String), op: 'upsert' });
    const sinceS1 = await changes(app, `?after=${last(stored)}`);
    expect(live.id).toBe(sinceS1[0]!.cursor);
    await events.cancel();

    const resumed = await fetch(`${app.url}/changes`, {
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': live.id! },
    });
    const rest = eventReader(resumed);
    for (const line of sinceS1.slice(1)) expect((await rest.next())?.id).toBe(line.cursor);
    stopping.abort();
    expect(await rest.next()).toBeUndefined();
  });

  it('refuses a Last-Event-ID that is not a cursor, and one the feed cannot answer with a 410', async () => {
    const { app, db } = await freshApp();
    await load(db, [S1]);
    const headers = (id: string) => ({ headers: { Accept: 'text/event-stream', 'Last-Event-ID': id } });
    expect(await problem(app, '', 400, headers('yesterday'))).toMatchObject({
      errors: [{ parameter: 'Last-Event-ID', message: 'is not a cursor this feed gave' }],
    });
    await problem(app, '', 410, headers('00000000.999999'));
  });

  it('resumes after Last-Event-ID rather than the after it began with, as a reconnecting browser asks', async () => {
    const { app, db } = await freshApp();
    await load(db, [S1, S2]);
    const lines = await changes(app);
    const response = await fetch(`${app.url}/changes?after=${lines[0]!.cursor}`, {
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': lines[2]!.cursor },
    });
    const events = eventReader(response);
    expect((await events.next())?.id).toBe(lines[3]!.cursor);
    await events.cancel();
  });
});
