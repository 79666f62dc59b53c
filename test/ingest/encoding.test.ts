import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedRecord } from '../support/import.ts';
import { importRecords } from '../../src/ingest/import.ts';
import type { ImportReport } from '../../src/ingest/report.ts';
import { readInputPath } from '../../src/ingest/sources/input-path.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startScript } from '../support/process.ts';
import { createUser, type TestUser } from '../meta/support.ts';

// Input that is not UTF-8, through the real readers (files on disk, as `npm run import` reads them), the
// CLI itself, and POST /import over HTTP.
let app: TestApp;
let db: Db;
let workDir: string;
let dataDir: string;
let loader: TestUser;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hsds-encoding-'));
  dataDir = join(workDir, 'data');
  app = await startTestApp({ HSDS_DATA_DIR: dataDir });
  db = app.database.db;
  loader = await createUser(app, [{ path: '/import', verb: 'POST' }]);
});
afterAll(async () => {
  await app?.close();
  await rm(workDir, { recursive: true, force: true });
});

/** A small valid service, under a fresh id. */
const service = (name: string, extra: object = {}) => ({
  id: randomUUID(),
  name,
  status: 'active',
  ...extra,
});

/** Latin-1 bytes: `é` is the one byte 0xE9, which starts no UTF-8 character here. */
const latin1 = (text: string) => Buffer.from(text, 'latin1');
const lines = (...records: object[]) => records.map((record) => JSON.stringify(record)).join('\n');

/** The NDJSON of three services, the second written in Latin-1, and the offset of its é. */
function latin1Ndjson() {
  const [first, second, third] = [service('Crèche 😀'), service('Café'), service('Ñandú')];
  const bytes = Buffer.concat([
    Buffer.from(`${lines(first)}\n`),
    latin1(`${lines(second)}\r\n`),
    Buffer.from(lines(third)),
  ]);
  const offset = bytes.indexOf(latin1('Caf\xe9')) + 3;
  return { bytes, offset, loaded: [first, third], rejected: second };
}

/**
 * Pads `before` so that the 4-byte character opening `after` starts 2 bytes before 64 KiB: a file stream's
 * chunks (64 KiB) split it.
 */
function straddling(before: (padding: string) => string, after: string): Buffer {
  const at = Buffer.byteLength(before(''));
  const text = before('x'.repeat(64 * 1024 - 2 - at)) + after;
  const bytes = Buffer.from(text);
  expect(bytes.subarray(64 * 1024 - 2, 64 * 1024 + 2)).toEqual(Buffer.from(after.slice(0, 2)));
  return bytes;
}

/** The UTF-16 forms of a text: LE and BE, with and without a byte order mark. */
const utf16Forms = (text: string): [string, Buffer][] => [
  ['UTF-16LE', Buffer.from(`\uFEFF${text}`, 'utf16le')],
  ['UTF-16LE', Buffer.from(text, 'utf16le')],
  ['UTF-16BE', Buffer.from(`\uFEFF${text}`, 'utf16le').swap16()],
  ['UTF-16BE', Buffer.from(text, 'utf16le').swap16()],
];

const refusal = (encoding: string) =>
  `the file is ${encoding}, not UTF-8: convert it to UTF-8 first (e.g. iconv -f ${encoding} -t UTF-8)`;

// eslint-disable-next-line no-control-regex -- what no message may hold
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

let files = 0;
async function file(name: string, bytes: Buffer | string): Promise<string> {
  const path = join(workDir, `${(files += 1)}-${name}`);
  await writeFile(path, bytes);
  return path;
}

/** A tabular-form package of one services table. */
async function servicePackage(csv: Buffer | string): Promise<{ dir: string; table: string }> {
  const dir = join(workDir, `package-${(files += 1)}`);
  await mkdir(dir);
  const fields = ['id', 'name', 'status'].map((name) => ({ name, type: 'string' }));
  const resources = [{ name: 'service', path: 'services.csv', schema: { fields } }];
  await writeFile(join(dir, 'datapackage.json'), JSON.stringify({ name: 'test', resources }));
  await writeFile(join(dir, 'services.csv'), csv);
  return { dir, table: join(dir, 'services.csv') };
}

const importFile = (path: string) => importRecords(db, readInputPath(path));

/** Every stored document and row, as text: anything decoded with replacements would show U+FFFD. */
async function storedText(database: Db): Promise<string> {
  const collections = await database.listCollections().toArray();
  const all = await Promise.all(collections.map(({ name }) => database.collection(name).find().toArray()));
  return JSON.stringify(all);
}

const storedService = (id: string) => servedRecord(db, 'services', id);

describe('importing files that are not UTF-8', () => {
  it('rejects the NDJSON line holding bytes that are not UTF-8 with its line and offset, and loads the others', async () => {
    const { bytes, offset, loaded, rejected } = latin1Ndjson();
    const path = await file('latin1.ndjson', bytes);
    const report = await importFile(path);
    expect(report).toMatchObject({ inserted: 2, rejected: 1 });
    expect(report.rejections).toEqual([{ at: `${path}:2`, message: `invalid UTF-8 at byte ${offset}` }]);
    expect(await storedService(loaded[0]!.id)).toMatchObject({ name: 'Crèche 😀' });
    expect(await storedService(loaded[1]!.id)).toMatchObject({ name: 'Ñandú' });
    expect(await storedService(rejected.id)).toBeNull();
    expect(await storedText(db)).not.toContain('\uFFFD');
  });

  it('rejects a JSON file holding bytes that are not UTF-8, with the offset', async () => {
    const record = service('Café');
    const bytes = latin1(JSON.stringify([service('Pantry'), record]));
    const path = await file('latin1.json', bytes);
    const report = await importFile(path);
    expect(report).toMatchObject({ inserted: 0, rejected: 1 });
    expect(report.rejections).toEqual([
      { at: path, message: `invalid UTF-8 at byte ${bytes.indexOf(0xe9)}` },
    ]);
    expect(await storedService(record.id)).toBeNull();
  });

  it('rejects the CSV row holding bytes that are not UTF-8 with its row and offset, and loads the other rows', async () => {
    const [first, second, third] = [service('Crèche'), service('Café'), service('Ñandú')];
    const row = ({ id, name }: { id: string; name: string }) => `${id},${name},active\r\n`;
    const csv = Buffer.concat([
      Buffer.from(`id,name,status\r\n${row(first)}`),
      latin1(row(second)),
      Buffer.from(row(third)),
    ]);
    const { dir, table } = await servicePackage(csv);
    const report = await importFile(dir);
    expect(report).toMatchObject({ inserted: 2, rejected: 1 });
    expect(report.rejections).toEqual([
      { at: `${table} row 2`, message: `invalid UTF-8 at byte ${csv.indexOf(0xe9)}` },
    ]);
    expect(await storedService(first.id)).toMatchObject({ name: 'Crèche' });
    expect(await storedService(third.id)).toMatchObject({ name: 'Ñandú' });
    expect(await storedService(second.id)).toBeNull();
    expect(await storedText(db)).not.toContain('\uFFFD');
  });

  it('refuses UTF-16 files whole, LE or BE, with a byte order mark or without, with one message naming the encoding', async () => {
    const records = [service('Wide one'), service('Wide two')];
    const csv = `id,name,status\n${records.map(({ id, name }) => `${id},${name},active`).join('\n')}\n`;
    const [ndjsonForms, jsonForms, csvForms] = [lines(...records), JSON.stringify(records), csv].map(
      utf16Forms,
    );
    for (const [form, [encoding, ndjson]] of ndjsonForms!.entries()) {
      const { dir, table } = await servicePackage(csvForms![form]![1]);
      const refused: [string, string][] = [
        [await file('wide.ndjson', ndjson), ''],
        [await file('wide.json', jsonForms![form]![1]), ''],
        [dir, table],
      ];
      for (const [path, at] of refused) {
        const report = await importFile(path);
        expect(report, `${encoding} ${path}`).toMatchObject({ inserted: 0, rejected: 1 });
        expect(report.rejections, `${encoding} ${path}`).toEqual([
          { at: at || path, message: refusal(encoding) },
        ]);
      }
    }
    for (const record of records) expect(await storedService(record.id)).toBeNull();
  });

  it('reads UTF-8 files that open with a byte order mark', async () => {
    const [ndjson, json, csv] = [service('Marked Café'), service('Marked Ñandú'), service('Marked Crèche')];
    const { dir } = await servicePackage(`\uFEFFid,name,status\r\n${csv.id},${csv.name},active\r\n`);
    for (const path of [
      await file('marked.ndjson', `\uFEFF${lines(ndjson)}\n`),
      await file('marked.json', `\uFEFF${JSON.stringify(json)}`),
      dir,
    ]) {
      expect(await importFile(path), path).toMatchObject({ inserted: 1, rejected: 0 });
    }
    for (const record of [ndjson, json, csv])
      expect(await storedService(record.id)).toMatchObject({ name: record.name });
  });

  it('reads a character split between two chunks of the file stream', async () => {
    const ndjson = service('Split 😀 NDJSON');
    const ndjsonPath = await file(
      'split.ndjson',
      straddling(
        (padding) => `${lines(service('Padding', { x_padding: padding }))}\n{"id":"${ndjson.id}","name":"`,
        `😀 split","status":"active"}\n`,
      ),
    );
    const csv = service('Split 😀 CSV');
    const { dir } = await servicePackage(
      straddling(
        (padding) => `id,name,status\n${randomUUID()},${padding},active\n${csv.id},`,
        '😀 split,active\n',
      ),
    );
    for (const path of [ndjsonPath, dir]) {
      expect(await importFile(path), path).toMatchObject({ inserted: 2, rejected: 0 });
    }
    expect(await storedService(ndjson.id)).toMatchObject({ name: '😀 split' });
    expect(await storedService(csv.id)).toMatchObject({ name: '😀 split' });
  });

  it('escapes the control characters a rejection quotes', async () => {
    // JSON.parse quotes the text around what it could not read.
    const path = await file('controls.ndjson', '{"name":\u0000\u001b[31m}\n[1,\u0085\u007f]\n');
    const report = await importFile(path);
    expect(report.rejected).toBe(2);
    expect(report.rejections.map(({ message }) => message)).toEqual([
      expect.stringContaining('"{"name":\\u0000\\u001b[31m}"'),
      expect.stringContaining('"[1,\\u0085\\u007f]"'),
    ]);
    for (const { message } of report.rejections) expect(message).not.toMatch(CONTROL_CHARACTER);
  });
});

describe('npm run import', () => {
  it('prints each rejection on its own line with no control character, and exits 1', async () => {
    const { bytes, offset } = latin1Ndjson();
    const latin1Path = await file('cli-latin1.ndjson', bytes);
    const widePath = await file(
      'cli-wide.json',
      Buffer.from(`[${JSON.stringify(service('Wide'))}]`, 'utf16le'),
    );
    const database = app.testDatabase.client.db(`${db.databaseName}_cli`);
    const run = startScript(
      'scripts/import.ts',
      { MONGODB_URI: app.testDatabase.uri, HSDS_DB_NAME: database.databaseName, LOG_LEVEL: 'warn' },
      [latin1Path, widePath],
    );
    expect(await run.exited).toBe(1);
    const output = run.output();
    expect(output).toContain('2 inserted, 0 updated, 0 unchanged, 2 rejected');
    expect(output).toContain(`rejected: ${latin1Path}:2: invalid UTF-8 at byte ${offset}\n`);
    expect(output).toContain(`rejected: ${widePath}: ${refusal('UTF-16LE')}\n`);
    expect(output.replaceAll('\n', '')).not.toMatch(CONTROL_CHARACTER);
    expect(await storedText(database)).not.toContain('\uFFFD');
  }, 60_000);
});

describe('POST /import with a body that is not UTF-8', () => {
  const post = (body: Buffer | ReadableStream, contentType: string) =>
    fetch(`${app.url}/import?wait=true`, {
      method: 'POST',
      headers: { ...loader.headers, 'content-type': contentType },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
  const spooled = async () => readdir(join(dataDir, 'import-spool')).catch(() => []);

  it('rejects the NDJSON line holding bytes that are not UTF-8 with its line and offset in the body, and loads the others', async () => {
    const { bytes, offset, loaded, rejected } = latin1Ndjson();
    const response = await post(bytes, 'application/x-ndjson');
    expect(response.status).toBe(200);
    const report = (await response.json()) as ImportReport;
    expect(report).toMatchObject({ inserted: 2, rejected: 1 });
    expect(report.rejections).toEqual([{ at: 'request body:2', message: `invalid UTF-8 at byte ${offset}` }]);
    expect(await storedService(loaded[1]!.id)).toMatchObject({ name: 'Ñandú' });
    expect(await storedService(rejected.id)).toBeNull();
    expect(await storedText(db)).not.toContain('\uFFFD');
  });

  it('answers 400 for a JSON body holding bytes that are not UTF-8, with the offset', async () => {
    const record = service('Café');
    const bytes = latin1(JSON.stringify(record));
    const response = await post(bytes, 'application/json');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 400,
      message: `The request body is not UTF-8: invalid UTF-8 at byte ${bytes.indexOf(0xe9)}.`,
    });
    expect(await storedService(record.id)).toBeNull();
  });

  it('answers 415 naming the encoding of a UTF-16 body, LE or BE, with a byte order mark or without', async () => {
    const record = service('Wide');
    for (const [type, text] of [
      ['application/json', JSON.stringify([record])],
      ['application/x-ndjson', lines(record)],
    ]) {
      for (const [encoding, bytes] of utf16Forms(text!)) {
        const response = await post(bytes, type!);
        expect(response.status, `${type} ${encoding}`).toBe(415);
        const problem = (await response.json()) as { message: string };
        expect(problem).toMatchObject({
          code: 415,
          message: `The request body is ${encoding}, not UTF-8: convert it to UTF-8 first (e.g. iconv -f ${encoding} -t UTF-8).`,
        });
      }
    }
    expect(await spooled()).toEqual([]);
    expect(await storedService(record.id)).toBeNull();
  });

  it('takes UTF-8 bodies with a byte order mark, and characters split between chunks', async () => {
    const [json, ndjson] = [service('Marked Café'), service('Marked Ñandú')];
    expect(
      await (await post(Buffer.from(`\uFEFF${JSON.stringify(json)}`), 'application/json')).json(),
    ).toMatchObject({
      inserted: 1,
      rejected: 0,
    });
    const split = service('Split 😀');
    const body = straddling(
      (padding) =>
        `\uFEFF${lines(ndjson, service('Padding', { x_padding: padding }))}\n{"id":"${split.id}","name":"`,
      `😀 split","status":"active"}\n`,
    );
    // Sent a byte at a time at first and then cut inside the character too: no piece is whole.
    const cut = body.indexOf(Buffer.from('😀')) + 1;
    const pieces = [
      ...Array.from({ length: 5 }, (_, index) => body.subarray(index, index + 1)),
      body.subarray(5, cut),
      body.subarray(cut),
    ];
    const stream = new ReadableStream({
      pull(controller) {
        const piece = pieces.shift();
        if (piece) controller.enqueue(piece);
        else controller.close();
      },
    });
    const response = await post(stream, 'application/x-ndjson');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ inserted: 3, rejected: 0 });
    for (const [record, name] of [
      [json, json.name],
      [ndjson, ndjson.name],
      [split, '😀 split'],
    ] as const) {
      expect(await storedService(record.id)).toMatchObject({ name });
    }
  });

  it('escapes the control characters a rejection quotes', async () => {
    const response = await post(Buffer.from('{"name":\u0001\u001b[2J}\n'), 'application/x-ndjson');
    const report = (await response.json()) as ImportReport;
    expect(report.rejected).toBe(1);
    expect(report.rejections[0]!.message).not.toMatch(CONTROL_CHARACTER);
    expect(report.rejections[0]!.message).toContain('"{"name":\\u0001\\u001b[2J}"');
  });
});
