import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { IMPORT_LEASE_COLLECTION } from '../../src/ingest/import-lease.ts';
import type { Json } from '../../src/json.ts';
import { call, createUser, eventually, storedEntries, type TestUser } from './support.ts';
import { defaultDocument } from '../openapi/default-document.ts';
import { documentValidator } from '../openapi/document-validator.ts';
import { responseSchemaPath } from '../openapi/response-schema.ts';

const LIMIT = 4096;
let app: TestApp;
let dataDir: string;
let loader: TestUser;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hsds-import-'));
  app = await startTestApp({ HSDS_DATA_DIR: dataDir, HSDS_IMPORT_BODY_LIMIT_BYTES: String(LIMIT) });
  loader = await createUser(app, [
    { path: '/import', verb: 'POST' },
    { path: '/meta/*', verb: 'GET' },
  ]);
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A small valid service with its organization, under fresh ids. */
function service(name = 'Weekly Pantry') {
  return {
    id: randomUUID(),
    name,
    status: 'active',
    organization: { id: randomUUID(), name: 'Harbor Food Bank', description: 'Groceries for families.' },
  };
}

const post = (query: string, body: string | ReadableStream, contentType: string, user = loader) =>
  fetch(`${app.url}/import${query}`, {
    method: 'POST',
    headers: { ...user.headers, 'content-type': contentType },
    body,
    ...(typeof body === 'string' ? {} : { duplex: 'half' }),
  } as RequestInit);
const ndjson = (...records: object[]) => records.map((record) => JSON.stringify(record)).join('\n');
const getService = (id: string) => call(app, 'GET', `/services/${id}`);
const spooled = async () => readdir(join(dataDir, 'import-spool')).catch(() => []);

describe('POST /import?wait=true', () => {
  it('imports a JSON array and answers 200 with the report', async () => {
    const records = [service('One'), service('Two')];
    const response = await post('?wait=true', JSON.stringify(records), 'application/json');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ dryRun: false, inserted: 2, rejected: 0 });
    expect((await getService(records[0]!.id)).body).toMatchObject({ id: records[0]!.id, name: 'One' });
  });

  it('imports one JSON record, rejecting a bad one with where and why', async () => {
    const response = await post('?wait=true&type=service', JSON.stringify({ id: 'x' }), 'application/json');
    expect(response.status).toBe(200);
    const report = (await response.json()) as { rejected: number; rejections: { at: string }[] };
    expect(report.rejected).toBe(1);
    expect(report.rejections[0]!.at).toContain('request body');
  });

  it('tells how to give the type of a record whose fields do not tell it, in the words of HTTP', async () => {
    const response = await post('?wait=true', JSON.stringify({ x_note: 'what am I?' }), 'application/json');
    const report = (await response.json()) as { rejections: { message: string }[] };
    expect(report.rejections[0]!.message).toMatch(/give the type explicitly \(.*type= over HTTP\)$/);
  });

  it.each(['application/x-ndjson', 'application/jsonl'])('imports NDJSON sent as %s', async (type) => {
    const records = [service('Nd one'), service('Nd two')];
    const response = await post('?wait=true', `${ndjson(...records)}\nnot json\n`, type);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ inserted: 2, rejected: 1 });
    expect((await getService(records[1]!.id)).body).toMatchObject({ name: 'Nd two' });
    expect(await spooled()).toEqual([]);
  });

  it('is idempotent: the same data again changes nothing', async () => {
    const body = JSON.stringify([service('Again')]);
    await post('?wait=true', body, 'application/json');
    expect(await (await post('?wait=true', body, 'application/json')).json()).toMatchObject({
      inserted: 0,
      updated: 0,
      unchanged: 1,
    });
  });

  it('writes nothing on a dry run', async () => {
    const record = service('Dry');
    const response = await post('?wait=true&dry_run=true', JSON.stringify(record), 'application/json');
    expect(await response.json()).toMatchObject({ dryRun: true, inserted: 1 });
    expect((await getService(record.id)).status).toBe(404);
    expect(
      await app.database.db.collection('records.service').findOne({ _id: record.id as never }),
    ).toBeNull();
  });

  it('takes its flags in every spelling of a flag, in any case', async () => {
    for (const query of ['?wait=1&dry_run=YES', '?wait=Yes&dry_run=1']) {
      const record = service(`Dry ${query}`);
      const response = await post(query, JSON.stringify(record), 'application/json');
      expect(response.status, query).toBe(200);
      expect(await response.json()).toMatchObject({ dryRun: true, inserted: 1 });
      expect((await getService(record.id)).status).toBe(404);
    }
    const written = service('Written with dry_run=No');
    const response = await post('?wait=TRUE&dry_run=No', JSON.stringify(written), 'application/json');
    expect(await response.json()).toMatchObject({ dryRun: false, inserted: 1 });
    expect((await getService(written.id)).status).toBe(200);
  });

  it('records the call when its client leaves before the answer, the import done all the same', async () => {
    // Imports wait while another process holds the database's import lease: the client leaves meanwhile.
    const leases = app.database.db.collection<Record<string, unknown>>(IMPORT_LEASE_COLLECTION);
    const leaseTakenAt = new Date().toISOString();
    await leases.insertOne({
      _id: 'import' as never,
      holder: 'another',
      pid: 1,
      pidSpace: 'another-pid-space',
      expiresAt: new Date(Date.now() + 60_000),
    });
    try {
      const record = service('Left Behind');
      const body = Buffer.from(ndjson(record));
      const upload = request(`${app.url}/import?wait=true`, {
        method: 'POST',
        headers: { ...loader.headers, 'content-type': 'application/x-ndjson', 'content-length': body.length },
      });
      upload.on('error', () => {});
      upload.end(body);
      // The body is received once its spool file holds it all.
      await eventually(async () => {
        const [file] = await spooled();
        return file && (await stat(join(dataDir, 'import-spool', file))).size === body.length
          ? file
          : undefined;
      });
      upload.destroy();
      await leases.deleteOne({ _id: 'import' as never });
      await eventually(async () => ((await getService(record.id)).status === 200 ? true : undefined));
      const entry = await eventually(async () =>
        (await storedEntries(app)).find(
          (stored) =>
            stored.path === '/import' &&
            stored.response_body?.includes(`"inserted":1`) &&
            stored.recorded_at > leaseTakenAt,
        ),
      );
      expect(entry).toMatchObject({ verb: 'POST', status: 'Complete', appid: loader.login });
    } finally {
      await leases.deleteOne({ _id: 'import' as never, holder: 'another' } as never);
    }
  });

  it('records the call as a Complete meta entry with the report', async () => {
    const record = service('Recorded');
    await post('?wait=true', JSON.stringify(record), 'application/json');
    const entry = await eventually(async () =>
      (await storedEntries(app)).find((stored) => stored.response_body?.includes('"inserted":1')),
    );
    expect(entry).toMatchObject({ path: '/import', verb: 'POST', status: 'Complete', appid: loader.login });
    expect(entry.request_parameters).toBe('{"wait":"true"}');
  });
});

describe('POST /import answered 202', () => {
  const complete = (id: string) =>
    eventually(async () => {
      const { body } = await call(app, 'GET', `/meta/${id}/`, { headers: loader.headers });
      return body.status === 'Complete' ? body : undefined;
    });

  it.each([
    ['application/json', (records: object[]) => JSON.stringify(records)],
    ['application/x-ndjson', (records: object[]) => ndjson(...records)],
  ])('answers %s with a Waiting meta entry, completed with the report', async (type, encode) => {
    const record = service('Later');
    const response = await post('', encode([record]), type);
    expect(response.status).toBe(202);
    const entry = (await response.json()) as Json;
    expect(entry).toMatchObject({ status: 'Waiting', path: '/import', verb: 'POST', appid: loader.login });
    expect(response.headers.get('location')).toBe(`/meta/${entry.id}/`);
    // Import reports and the audit trail are nobody's to cache.
    expect(response.headers.get('cache-control')).toBe('no-store');
    const read = await fetch(`${app.url}/meta/${String(entry.id)}/`, { headers: loader.headers });
    expect(read.headers.get('cache-control')).toBe('no-store');
    const done = await complete(entry.id as string);
    expect(JSON.parse(done.response_body as string)).toMatchObject({ inserted: 1, rejected: 0 });
    expect((await getService(record.id)).body).toMatchObject({ id: record.id, name: 'Later' });
    // The handler kept this call's entry itself: the recorder did not add a second one.
    const forCall = (await storedEntries(app)).filter((stored) => stored.recorded_at === entry.recorded_at);
    expect(forCall).toHaveLength(1);
    expect(forCall[0]).not.toHaveProperty('_heartbeat_at');
    expect(await spooled()).toEqual([]);
  });
});

describe('POST /import refusals', () => {
  it('answers 403 without a grant for POST /import', async () => {
    const outsider = await createUser(app, [{ path: '/meta/*', verb: '*' }]);
    const response = await post('?wait=true', JSON.stringify(service()), 'application/json', outsider);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 403, message: expect.any(String) });
    const anonymous = await fetch(`${app.url}/import`, { method: 'POST', body: '[]' });
    expect(anonymous.status).toBe(403);
  });

  it('answers 413 for a body over the limit, whether its length is declared or not', async () => {
    const big = ndjson(...Array.from({ length: 60 }, () => service('x'.repeat(50))));
    expect(big.length).toBeGreaterThan(LIMIT);
    const declared = await post('?wait=true', big, 'application/x-ndjson');
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: 413, message: expect.any(String) });
    const chunks = [big.slice(0, 3000), big.slice(3000)].map((text) => new TextEncoder().encode(text));
    const stream = new ReadableStream({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await post('', stream, 'application/x-ndjson');
    expect(streamed.status).toBe(413);
    expect(await spooled()).toEqual([]);
    const json = await post('', JSON.stringify(big), 'application/json');
    expect(json.status).toBe(413);
  });

  it('answers 400 for malformed JSON and 415 for other content types, as problems with code', async () => {
    const malformed = await post('?wait=true', '[{"id": 1}, {"id" 2}]', 'application/json');
    expect(malformed.status).toBe(400);
    // Where it breaks, in the parser's words.
    expect(await malformed.json()).toMatchObject({
      code: 400,
      // V8's wording (Node 22 adds the line and column).
      message: expect.stringMatching(/^The request body is not valid JSON: .* at position 18\b/),
    });
    for (const type of ['text/csv', 'application/x-www-form-urlencoded']) {
      const response = await post('?wait=true', 'id,name', type);
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({ code: 415, message: expect.any(String) });
    }
  });

  it('answers 415 naming the charset of a body that is not UTF-8, and takes one labelled UTF-8', async () => {
    for (const type of ['application/json; charset=utf-16', 'application/x-ndjson; charset=ISO-8859-1']) {
      const response = await post('?wait=true', '[]', type);
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({
        code: 415,
        message: `The request body must be UTF-8; its charset is ${type.split('charset=')[1]!.toLowerCase()}.`,
      });
    }
    const utf8 = await post('?wait=true', '[]', 'application/json; charset=UTF-8');
    expect(utf8.status).toBe(200);
  });

  it.each(['type=program', 'wait=maybe', 'dry_run=2', 'dryrun=true'])('answers 400 for %s', async (query) => {
    const response = await post(`?${query}`, '[]', 'application/json');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 400, errors: [{ parameter: query.split('=')[0] }] });
  });
});

describe('POST /import cut off mid-upload', () => {
  it('imports nothing, leaves no spool file, logs no server error and keeps serving', async () => {
    const before = app.logs.length;
    const upload = request(`${app.url}/import?wait=true`, {
      method: 'POST',
      headers: { ...loader.headers, 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' },
    });
    upload.on('error', () => {});
    upload.write(`${JSON.stringify(service('Never Finished'))}\n{"id": "half`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    upload.destroy();
    await eventually(async () =>
      app.logs.slice(before).find((line) => line.msg === 'request' && line.path === '/import'),
    );
    const logged = app.logs.slice(before);
    expect(logged.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(await spooled()).toEqual([]);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });
});

describe('POST /import whose upload stalls past HSDS_REQUEST_TIMEOUT_MS', () => {
  it('is answered 408, imports nothing, leaves no spool file and logs no server error', async () => {
    const slowDir = await mkdtemp(join(tmpdir(), 'hsds-import-'));
    const slow = await startTestApp({ HSDS_DATA_DIR: slowDir, HSDS_REQUEST_TIMEOUT_MS: '1000' });
    try {
      const user = await createUser(slow, [{ path: '/import', verb: 'POST' }]);
      const stalled = service('Stalled Upload');
      const upload = request(`${slow.url}/import?wait=true`, {
        method: 'POST',
        headers: { ...user.headers, 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' },
      });
      upload.on('error', () => {});
      const answered = new Promise<{ status?: number; body: string }>((resolve) =>
        upload.on('response', (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode, body }));
        }),
      );
      upload.write(`${JSON.stringify(stalled)}\n`);
      const { status, body } = await answered;
      expect(status).toBe(408);
      expect(JSON.parse(body)).toMatchObject({
        status: 408,
        detail: 'The request was not received in time.',
      });
      // As the OpenAPI document describes it.
      const document = defaultDocument('http://localhost');
      const at = responseSchemaPath(document, '/import', 'post', 408, 'application/problem+json');
      expect(documentValidator(document)(at, JSON.parse(body)).errors).toEqual([]);
      await eventually(async () =>
        slow.logs.find((line) => line.msg === 'request' && line.path === '/import'),
      );
      expect(slow.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
      expect(await readdir(join(slowDir, 'import-spool')).catch(() => [])).toEqual([]);
      expect((await call(slow, 'GET', `/services/${stalled.id}`)).status).toBe(404);
    } finally {
      await slow.close();
      await rm(slowDir, { recursive: true, force: true });
    }
  });
});

describe('POST /import accepted at once', () => {
  it('refuses a ninth import while eight are uploading, and takes one again once they are gone', async () => {
    // Nine uploads that never finish: whichever comes ninth is refused, and it is the only one answered.
    const answers: { status?: number; retryAfter?: string | string[]; body: string }[] = [];
    const uploads = Array.from({ length: 9 }, () => {
      const upload = request(`${app.url}/import?wait=true`, {
        method: 'POST',
        headers: {
          ...loader.headers,
          'content-type': 'application/x-ndjson',
          'transfer-encoding': 'chunked',
        },
      });
      upload.on('response', (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          answers.push({ status: response.statusCode, retryAfter: response.headers['retry-after'], body }),
        );
      });
      upload.on('error', () => {});
      upload.write(`${JSON.stringify(service('Still Uploading'))}\n`);
      return upload;
    });
    await eventually(async () => answers[0]);
    expect(answers).toEqual([{ status: 503, retryAfter: '30', body: expect.any(String) }]);
    // As the OpenAPI document describes it.
    const document = defaultDocument('http://localhost');
    const at = responseSchemaPath(document, '/import', 'post', 503, 'application/problem+json');
    expect(documentValidator(document)(at, JSON.parse(answers[0]!.body)).errors).toEqual([]);
    const before = app.logs.length;
    for (const upload of uploads) upload.destroy();
    // Each cut-off upload is answered (and logged) once the server has let go of it.
    await eventually(async () => {
      const answered = app.logs
        .slice(before)
        .filter((line) => line.msg === 'request' && line.path === '/import');
      return answered.length >= uploads.length - 1 || undefined;
    });
    const after = await post('?wait=true', ndjson(service('After Them')), 'application/x-ndjson');
    expect(after.status).toBe(200);
    expect(await spooled()).toEqual([]);
  });
});

describe('POST /import JSON size', () => {
  it('keeps JSON bodies (parsed in memory) small, and points larger loads to NDJSON', async () => {
    const small = await startTestApp({ HSDS_IMPORT_JSON_LIMIT_BYTES: '2048' });
    try {
      const user = await createUser(small, [{ path: '/import', verb: 'POST' }]);
      const records = Array.from({ length: 12 }, () => service());
      const send = (body: string, contentType: string) =>
        fetch(`${small.url}/import?wait=true`, {
          method: 'POST',
          headers: { ...user.headers, 'content-type': contentType },
          body,
        });
      const json = await send(JSON.stringify(records), 'application/json');
      expect(json.status).toBe(413);
      expect(await json.json()).toMatchObject({
        detail: expect.stringMatching(/send larger loads as NDJSON/),
      });
      const lines = await send(ndjson(...records), 'application/x-ndjson');
      expect(lines.status).toBe(200);
      expect(await lines.json()).toMatchObject({ inserted: 12, rejected: 0 });
    } finally {
      await small.close();
    }
  });
});

describe('POST /import on a server behind a path-prefixed proxy, whose data directory is not writable', () => {
  let other: TestApp;
  let otherDir: string;
  let otherLoader: TestUser;
  beforeAll(async () => {
    otherDir = await mkdtemp(join(tmpdir(), 'hsds-import-'));
    const file = join(otherDir, 'a-file');
    await writeFile(file, '');
    other = await startTestApp({
      // Under a file: no directory can be made there, whoever runs the tests (root included).
      HSDS_DATA_DIR: join(file, 'data'),
      HSDS_PUBLIC_URL: 'https://api.example.org/hsds',
    });
    otherLoader = await createUser(other, [{ path: '/import', verb: 'POST' }]);
  });
  afterAll(async () => {
    await other?.close();
    await rm(otherDir, { recursive: true, force: true });
  });
  const postTo = (query: string, body: string, type: string) =>
    fetch(`${other.url}/import${query}`, {
      method: 'POST',
      headers: { ...otherLoader.headers, 'content-type': type },
      body,
    });

  it('points Location at the public URL', async () => {
    const response = await postTo('', JSON.stringify([service()]), 'application/json');
    expect(response.status).toBe(202);
    const entry = (await response.json()) as Json;
    expect(response.headers.get('location')).toBe(`https://api.example.org/hsds/meta/${String(entry.id)}/`);
  });

  it('answers an NDJSON upload it cannot store with 503, saying so in the log', async () => {
    const record = service();
    const response = await postTo('?wait=true', ndjson(record), 'application/x-ndjson');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(await response.json()).toMatchObject({
      status: 503,
      detail:
        'The server cannot store NDJSON uploads at the moment; retry later, or send the records as JSON.',
    });
    expect(other.logs).toContainEqual(
      expect.objectContaining({ msg: 'NDJSON upload cannot be stored: is HSDS_DATA_DIR writable?' }),
    );
    expect((await call(other, 'GET', `/services/${record.id}`)).status).toBe(404);
  });
});
