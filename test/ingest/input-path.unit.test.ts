import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputRecord } from '../../src/ingest/input-record.ts';
import { readInputPath } from '../../src/ingest/sources/input-path.ts';

const ID = 'c0000000-0000-4000-8000-000000000001';
const record = { id: ID, name: 'Needs', version: '1' };

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hsds-input-path-'));
  await writeFile(join(folder, 'records.ndjson'), `${JSON.stringify(record)}\n`);
  await writeFile(join(folder, 'records.JSONL'), `${JSON.stringify(record)}\n`);
  await writeFile(join(folder, 'records.json'), JSON.stringify([record]));
  await writeFile(join(folder, 'records.csv'), `id\n${ID}\n`);
  await mkdir(join(folder, 'package'));
  await writeFile(
    join(folder, 'package', 'datapackage.json'),
    JSON.stringify({ resources: [{ name: 'taxonomy', path: 'taxonomies.csv' }] }),
  );
  await writeFile(join(folder, 'package', 'taxonomies.csv'), `id,name,version\n${ID},Needs,1\n`);
  await mkdir(join(folder, 'empty'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function read(path: string): Promise<InputRecord[]> {
  const records: InputRecord[] = [];
  for await (const input of readInputPath(path)) records.push(input);
  return records;
}

describe('reading an input path', () => {
  it('reads NDJSON and JSON Lines files as NDJSON, whatever the case of the extension', async () => {
    for (const file of ['records.ndjson', 'records.JSONL']) {
      const path = join(folder, file);
      expect(await read(path)).toEqual([{ source: { file: path, line: 1 }, text: JSON.stringify(record) }]);
    }
  });

  it('reads a .json file as JSON', async () => {
    const path = join(folder, 'records.json');
    expect(await read(path)).toEqual([{ source: { file: path, index: 0 }, value: record }]);
  });

  it('reads a folder with a datapackage.json, or that file, as the tabular form', async () => {
    const expected = [
      {
        source: { file: join(folder, 'package', 'taxonomies.csv'), row: 1 },
        entity: 'taxonomy',
        columns: ['id', 'name', 'version'],
        value: record,
      },
    ];
    expect(await read(join(folder, 'package'))).toEqual(expected);
    expect(await read(join(folder, 'package', 'datapackage.json'))).toEqual(expected);
  });

  it('drops a byte order mark opening a JSON file, an NDJSON file or a datapackage.json', async () => {
    const marked = join(folder, 'marked');
    await mkdir(marked);
    const line = JSON.stringify(record);
    await writeFile(join(marked, 'records.ndjson'), `\uFEFF${line}\n${line}\n`);
    await writeFile(join(marked, 'records.json'), `\uFEFF${line}`);
    await writeFile(
      join(marked, 'datapackage.json'),
      `\uFEFF{"resources": [{"name": "taxonomy", "path": "t.csv"}]}`,
    );
    await writeFile(join(marked, 't.csv'), `\uFEFFid,name,version\n${ID},Needs,1\n`);
    expect((await read(join(marked, 'records.ndjson'))).map((input) => input.text)).toEqual([line, line]);
    expect((await read(join(marked, 'records.json'))).map((input) => input.value)).toEqual([record]);
    expect((await read(join(marked, 'datapackage.json'))).map((input) => input.value)).toEqual([record]);
  });

  it('gives one clear error for anything else', async () => {
    const cases: [string, string][] = [
      [join(folder, 'missing.json'), 'no such file or folder'],
      [join(folder, 'empty'), 'needs a datapackage.json'],
      [join(folder, 'records.csv'), 'cannot tell how to read it'],
    ];
    for (const [path, message] of cases) {
      expect(await read(path)).toEqual([{ source: { file: path }, error: expect.stringContaining(message) }]);
    }
  });
});
