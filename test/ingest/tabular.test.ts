import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLines, servedRecord } from '../support/import.ts';
import { Database } from '../../src/db/database.ts';
import { rowCollection } from '../../src/db/collections.ts';
import { importRecords } from '../../src/ingest/import.ts';
import { CsvSyntaxError, csvRecords, parseCsv, type CsvDialect } from '../../src/csv.ts';
import { entityOfTable } from '../../src/ingest/sources/table-entity.ts';
import { convertCell } from '../../src/ingest/sources/table-field.ts';
import { readTabularPackage } from '../../src/ingest/sources/tabular.ts';
import { createLogger } from '../../src/log.ts';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

async function* inChunks(text: string, size: number): AsyncGenerator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}

/** The bytes in chunks of `size`: unlike text chunks, these may end inside a character. */
async function* bytesInChunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

/** Parses the text cut into chunks of every size, checking each cut gives the same records. */
async function parse(text: string, dialect?: CsvDialect): Promise<string[][]> {
  const whole = await collect(parseCsv(inChunks(text, Math.max(text.length, 1)), dialect));
  for (let size = 1; size < text.length; size += 1) {
    expect(await collect(parseCsv(inChunks(text, size), dialect)), `chunks of ${size}`).toEqual(whole);
  }
  return whole;
}

describe('the CSV parser', () => {
  it('splits records on CRLF, LF or a lone CR, with or without a final line break', async () => {
    expect(await parse('a,b\r\nc,d\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(await parse('a,b\nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(await parse('a,b\rc,d\r')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('reads quoted fields holding delimiters, line breaks and doubled quotes', async () => {
    expect(await parse('"a,b","line 1\r\nline 2","say ""hi""",plain\r\n"x\ny",""\r\n')).toEqual([
      ['a,b', 'line 1\r\nline 2', 'say "hi"', 'plain'],
      ['x\ny', ''],
    ]);
    expect(await parse('"""+44 1234 234567""",100')).toEqual([['"+44 1234 234567"', '100']]);
  });

  it('keeps empty fields, blank lines and a trailing delimiter', async () => {
    expect(await parse(',,\n\na,\n')).toEqual([['', '', ''], [''], ['a', '']]);
    expect(await parse('')).toEqual([]);
    expect(await parse('""')).toEqual([['']]);
  });

  it('keeps spaces, and quotes not opening a field, as text', async () => {
    expect(await parse(' a , "b" \n')).toEqual([[' a ', ' "b" ']]);
    // Text after a closing quote makes the field text, its quotes kept (csv-parse's relax_quotes).
    expect(await parse('5" pipe,x\n"quoted"tail,y')).toEqual([
      ['5" pipe', 'x'],
      ['"quoted"tail', 'y'],
    ]);
  });

  it('drops a byte order mark at the start only', async () => {
    expect(await parse('\uFEFFid,name\n1,\uFEFFx')).toEqual([
      ['id', 'name'],
      ['1', '\uFEFFx'],
    ]);
  });

  it('gives where each record ends, in bytes from the start of the input, however the chunks fall', async () => {
    // A byte order mark, a quoted line break, multibyte characters, a CRLF and a last record without one.
    const text = '\uFEFFa,b\r\n"c\nd",€\rf😀,g\r\nh';
    const ends = [8, 18, 27, 28];
    expect(Buffer.byteLength(text)).toBe(28);
    const bytes = Buffer.from(text);
    for (let size = 1; size <= bytes.length; size += 1) {
      const records = await collect(csvRecords(bytesInChunks(bytes, size)));
      expect(records, `chunks of ${size}`).toEqual([
        { cells: ['a', 'b'], end: ends[0] },
        { cells: ['c\nd', '€'], end: ends[1] },
        { cells: ['f😀', 'g'], end: ends[2] },
        { cells: ['h'], end: ends[3] },
      ]);
    }
  });

  it('honours another delimiter and quote character', async () => {
    expect(await parse("a;'b;c';'it''s'\n", { delimiter: ';', quoteChar: "'" })).toEqual([
      ['a', 'b;c', "it's"],
    ]);
  });

  it('reports a quoted field that is never closed, with its line, after the records before it', async () => {
    const records: string[][] = [];
    const reading = (async () => {
      for await (const record of parseCsv(inChunks('a,b\r\nc,"d\r\ne', 3))) records.push(record);
    })();
    await expect(reading).rejects.toThrow(CsvSyntaxError);
    await expect(reading).rejects.toMatchObject({ line: 2 });
    expect(records).toEqual([['a', 'b']]);
  });

  it('names the line an unclosed quoted field opens on, whatever the chunks and line breaks before it', async () => {
    // [text, records before the error, line of the opening quote]
    const cases: [string, number, number][] = [
      ['"never', 0, 1],
      ['\uFEFFa\r\n\r\n"never\r\n', 2, 3],
      // Line breaks inside quoted cells count, a CRLF as one; so do those of the same record's earlier cells.
      ['a,"1\r\n2\r\n3"\r\nb,c\r\nd,"4\r\n5","never\r\nclosed\r\n', 2, 6],
      ['a,"1\n2"\rb\r\nc,"never\n', 2, 4],
      ["a;'1\r2';'never", 0, 2],
    ];
    for (const [text, recordCount, line] of cases) {
      const dialect = text.includes(';') ? { delimiter: ';', quoteChar: "'" } : {};
      for (let size = 1; size <= text.length; size += 1) {
        const records: string[][] = [];
        const reading = (async () => {
          for await (const record of parseCsv(inChunks(text, size), dialect)) records.push(record);
        })();
        const label = `${JSON.stringify(text)} in chunks of ${size}`;
        await expect(reading, label).rejects.toThrow(`a quoted field opened on line ${line} is never closed`);
        await expect(reading, label).rejects.toMatchObject({ name: 'CsvSyntaxError', line });
        expect(records, label).toHaveLength(recordCount);
      }
    }
  });
});

describe('converting cells by their Table Schema type', () => {
  const as = (type: string, text: string) => convertCell(text, { name: 'column', type });

  it('reads integers, numbers and years as numbers', () => {
    expect(as('integer', '42')).toEqual({ value: 42 });
    expect(as('integer', ' -7 ')).toEqual({ value: -7 });
    expect(as('number', '1.5e3')).toEqual({ value: 1500 });
    expect(as('number', '.5')).toEqual({ value: 0.5 });
    expect(as('number', '2011')).toEqual({ value: 2011 });
    expect(as('year', '2011')).toEqual({ value: 2011 });
  });

  it('refuses what is not of the type', () => {
    expect(as('integer', 'abc')).toEqual({ error: 'not an integer' });
    expect(as('integer', '1.5')).toEqual({ error: 'not an integer' });
    expect(as('integer', '99999999999999999999')).toEqual({ error: 'too large an integer' });
    expect(as('number', '1,5')).toEqual({ error: 'not a finite number' });
    expect(as('number', 'NaN')).toEqual({ error: 'not a finite number' });
    expect(as('boolean', 'yes')).toEqual({ error: 'not a boolean' });
    expect(as('date', '01/02/2020')).toMatchObject({ error: expect.stringContaining('date') });
    expect(as('time', '10am')).toMatchObject({ error: expect.stringContaining('time') });
    expect(as('datetime', '2023-03-15')).toMatchObject({ error: expect.stringContaining('datetime') });
    expect(as('object', '[1]')).toEqual({ error: 'not a JSON object' });
    expect(as('array', '{')).toEqual({ error: 'not valid JSON' });
  });

  it('reads booleans by the default or declared true and false values', () => {
    expect(as('boolean', 'TRUE')).toEqual({ value: true });
    expect(as('boolean', '0')).toEqual({ value: false });
    const field = { name: 'open', type: 'boolean', trueValues: ['Y'], falseValues: ['N'] };
    expect(convertCell('Y', field)).toEqual({ value: true });
    expect(convertCell('N', field)).toEqual({ value: false });
    expect(convertCell('true', field)).toEqual({ error: 'not a boolean' });
  });

  it('keeps dates and times as the text HSDS JSON has, and parses JSON types', () => {
    expect(as('date', '2005-01-01')).toEqual({ value: '2005-01-01' });
    expect(as('time', '10:00:00')).toEqual({ value: '10:00:00' });
    expect(as('datetime', '2023-03-15T10:30:45.123Z')).toEqual({ value: '2023-03-15T10:30:45.123Z' });
    expect(as('geojson', '{"type":"Point","coordinates":[1,2]}')).toEqual({
      value: { type: 'Point', coordinates: [1, 2] },
    });
    expect(as('array', '[1,"a"]')).toEqual({ value: [1, 'a'] });
  });

  it('keeps strings, other text types and undeclared columns as they are', () => {
    expect(as('string', ' 12 ')).toEqual({ value: ' 12 ' });
    expect(as('duration', 'P1D')).toEqual({ value: 'P1D' });
    expect(convertCell('007', undefined)).toEqual({ value: '007' });
    expect(convertCell('007', { name: 'code' })).toEqual({ value: '007' });
  });
});

describe('naming the entity of a table', () => {
  it('goes by the resource name, else by the file name, singular or plural', () => {
    expect(entityOfTable('service_at_location', 'x/service_at_location.csv')).toBe('service_at_location');
    expect(entityOfTable(undefined, 'x/phones.csv')).toBe('phone');
    expect(entityOfTable(undefined, 'x/addresses.csv')).toBe('address');
    expect(entityOfTable(undefined, 'x/Taxonomies.CSV')).toBe('taxonomy');
    expect(entityOfTable('funding', 'x/funding.csv')).toBe('funding');
    expect(entityOfTable('accessibility', 'x/accessibility.csv')).toBe('accessibility');
    expect(entityOfTable('my_services', 'x/services.csv')).toBe('service');
    expect(entityOfTable('meta_table_description', 'x/meta_table_descriptions.csv')).toBeUndefined();
  });
});

const SERVICE_A = 'a0000000-0000-4000-8000-000000000001';
const SERVICE_B = 'a0000000-0000-4000-8000-000000000002';
const SERVICE_C = 'a0000000-0000-4000-8000-000000000003';
const TAXONOMY = 'b0000000-0000-4000-8000-000000000001';

const field = (name: string, type = 'string') => ({ name, type });
/** Fields of type string, by name. */
const strings = (...names: string[]) => names.map((name) => field(name));
const resource = (name: string, path: string, fields: object[], extra: object = {}) => ({
  name,
  path,
  schema: { fields },
  ...extra,
});

const serviceFields = [
  field('id'),
  field('name'),
  field('status'),
  field('minimum_age', 'integer'),
  field('assured_date', 'date'),
];

let folder: string;

/** Writes a data package: its descriptor and the CSV files (text as UTF-8, or bytes), into a fresh folder. */
async function writePackage(resources: object[], files: Record<string, string | Buffer>): Promise<string> {
  const dir = await mkdtemp(join(folder, 'package-'));
  await writeFile(join(dir, 'datapackage.json'), JSON.stringify({ name: 'test', resources }));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hsds-tabular-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('reading a tabular-form package', () => {
  it('yields one typed row per data row, with its file and row, missing cells and extensions as given', async () => {
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv':
        'id,name,status,minimum_age,assured_date,x_local_code\r\n' +
        `${SERVICE_A},"Pantry, weekly",active,12,2005-01-01,0042\r\n` +
        `${SERVICE_B},Meals,active,,,\r\n`,
    });
    const file = join(dir, 'services.csv');
    const columns = ['id', 'name', 'status', 'minimum_age', 'assured_date', 'x_local_code'];
    expect(await collect(readTabularPackage(dir))).toEqual([
      {
        source: { file, row: 1 },
        entity: 'service',
        columns,
        value: {
          id: SERVICE_A,
          name: 'Pantry, weekly',
          status: 'active',
          minimum_age: 12,
          assured_date: '2005-01-01',
          x_local_code: '0042',
        },
      },
      {
        source: { file, row: 2 },
        entity: 'service',
        columns,
        value: { id: SERVICE_B, name: 'Meals', status: 'active' },
      },
    ]);
  });

  it('reads the columns a package leaves untyped as the HSDS model types them, other columns as text', async () => {
    const location = 'c0000000-0000-4000-8000-000000000001';
    const dir = await writePackage(
      [
        { name: 'service', path: 'services.csv' },
        { name: 'location', path: 'locations.csv', schema: { fields: [{ name: 'latitude' }] } },
      ],
      {
        'services.csv': `id,name,status,minimum_age,maximum_age,x_local_code\n${SERVICE_A},Pantry,active,5,0.5e2,0042\n`,
        'locations.csv': `id,location_type,latitude,longitude,name\n${location},physical, 47.6 ,-122.3,42\n`,
      },
    );
    const values = (await collect(readTabularPackage(dir))).map(
      (record) => (record as { value: unknown }).value,
    );
    expect(values).toEqual([
      {
        id: SERVICE_A,
        name: 'Pantry',
        status: 'active',
        minimum_age: 5,
        maximum_age: 50,
        x_local_code: '0042',
      },
      { id: location, location_type: 'physical', latitude: 47.6, longitude: -122.3, name: '42' },
    ]);
  });

  it('reads the same package from the path of its datapackage.json', async () => {
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv': `id,name,status\n${SERVICE_A},Pantry,active\n`,
    });
    const fromFolder = await collect(readTabularPackage(dir));
    expect(await collect(readTabularPackage(join(dir, 'datapackage.json')))).toEqual(fromFolder);
    expect(fromFolder).toHaveLength(1);
  });

  it('rejects a row with a cell that does not convert, naming the column and the value', async () => {
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv': `id,name,status,minimum_age\n${SERVICE_A},A,active,12\n${SERVICE_B},B,active,abc\n`,
    });
    const [good, bad] = await collect(readTabularPackage(dir));
    expect(good).toMatchObject({ value: { minimum_age: 12 } });
    expect(bad).toEqual({
      source: { file: join(dir, 'services.csv'), row: 2 },
      entity: 'service',
      error: 'column minimum_age: "abc" is not an integer',
    });
  });

  it('skips blank lines and rows of empty cells, still counting them as rows, and rejects a row with cells beyond the header', async () => {
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv': `id,name,status\n\n${SERVICE_A},A,active,,\n,,\n${SERVICE_B},B,active,surplus\n , ,""\n`,
    });
    const records = await collect(readTabularPackage(dir));
    expect(records.map((record) => [record.source.row, record.error])).toEqual([
      [2, undefined],
      [4, 'the row has 4 cells but the table has 3 columns'],
    ]);
  });

  it('honours the declared missing values, dialect and a header-less table', async () => {
    const dir = await writePackage(
      [
        {
          ...resource('service', 'services.tsv', serviceFields),
          format: 'csv',
          schema: { fields: serviceFields, missingValues: ['', 'NA'] },
          dialect: { delimiter: '\t', header: false },
        },
      ],
      { 'services.tsv': `${SERVICE_A}\tPantry\tactive\tNA\t2005-01-01\n` },
    );
    expect(await collect(readTabularPackage(dir))).toMatchObject([
      { value: { id: SERVICE_A, name: 'Pantry', status: 'active', assured_date: '2005-01-01' } },
    ]);
  });

  it('yields taxonomies and taxonomy terms first', async () => {
    const dir = await writePackage(
      [
        resource('service', 'services.csv', serviceFields),
        resource('taxonomy_term', 'taxonomy_terms.csv', [field('id'), field('name')]),
        resource('taxonomy', 'taxonomies.csv', [field('id'), field('name')]),
      ],
      {
        'services.csv': `id,name,status\n${SERVICE_A},A,active\n`,
        'taxonomy_terms.csv': `id,name,taxonomy_id\n${SERVICE_C},Food,${TAXONOMY}\n`,
        'taxonomies.csv': `id,name\n${TAXONOMY},Needs\n`,
      },
    );
    const records = await collect(readTabularPackage(dir));
    expect(records.map((record) => record.entity)).toEqual(['taxonomy', 'taxonomy_term', 'service']);
  });

  it('notes an unknown table once, by name (not a bad record), and reads the others', async () => {
    const dir = await writePackage(
      [resource('widget', 'widgets.csv', [field('id')]), resource('service', 'services.csv', serviceFields)],
      { 'widgets.csv': 'id\n1\n2\n', 'services.csv': `id,name,status\n${SERVICE_A},A,active\n` },
    );
    const records = await collect(readTabularPackage(dir));
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual({
      source: { file: join(dir, 'widgets.csv') },
      notice: expect.stringContaining('table widget holds no HSDS entity'),
    });
    expect(records[1]).toMatchObject({ entity: 'service', value: { id: SERVICE_A } });
  });

  it('reports what it cannot read: a missing file, broken CSV, unsafe paths, a bad descriptor', async () => {
    const dir = await writePackage(
      [
        resource('phone', 'phones.csv', [field('id')]),
        resource('service', 'services.csv', serviceFields),
        resource('contact', '../contacts.csv', [field('id')]),
        resource('language', 'languages.json', [field('id')], { format: 'json' }),
      ],
      { 'services.csv': `id,name,status\n${SERVICE_A},A,active\n${SERVICE_B},"B,active\n` },
    );
    const errors = (await collect(readTabularPackage(dir))).map((record) => [
      record.source.row,
      record.error ?? 'read',
    ]);
    expect(errors).toEqual([
      [undefined, expect.stringContaining('the table cannot be read (ENOENT')],
      [1, 'read'],
      [2, expect.stringMatching(/^the table is not valid CSV \(a quoted field opened on line 3 .*not read$/)],
      [undefined, expect.stringContaining('must stay inside the package folder')],
      [undefined, expect.stringContaining('only CSV tables are read, not json')],
    ]);

    await writeFile(join(dir, 'datapackage.json'), '{"name": "no resources"}');
    expect(await collect(readTabularPackage(dir))).toEqual([
      {
        source: { file: join(dir, 'datapackage.json') },
        error: expect.stringContaining('no list of resources'),
      },
    ]);
  });

  it('reads a byte order mark, CRLF, LF and lone CR line breaks mixed, and line breaks inside quoted cells', async () => {
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv':
        '\uFEFFid,name,status\r\n' +
        `${SERVICE_A},"Pantry\r\n(weekly)",active\n` +
        `${SERVICE_B},"Meals, ""hot""\nand cold",active\r` +
        `${SERVICE_C},Rides,active`,
    });
    const records = await collect(readTabularPackage(dir));
    expect(records.map((record) => [record.source.row, record.value, record.error])).toEqual([
      [1, { id: SERVICE_A, name: 'Pantry\r\n(weekly)', status: 'active' }, undefined],
      [2, { id: SERVICE_B, name: 'Meals, "hot"\nand cold', status: 'active' }, undefined],
      [3, { id: SERVICE_C, name: 'Rides', status: 'active' }, undefined],
    ]);
  });

  it('reads a row with fewer cells than the header, leaving the missing ones out', async () => {
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv': `id,name,status,minimum_age\n${SERVICE_A},Pantry\n${SERVICE_B}\n${SERVICE_C},C,active,3\n`,
    });
    expect((await collect(readTabularPackage(dir))).map((record) => record.value)).toEqual([
      { id: SERVICE_A, name: 'Pantry' },
      { id: SERVICE_B },
      { id: SERVICE_C, name: 'C', status: 'active', minimum_age: 3 },
    ]);
  });

  it('reports a quoted cell never closed at its row and the line it opens on, after the rows before it', async () => {
    // Line breaks inside quoted cells count for the line (a CRLF as one), not for the row.
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv':
        'id,name,status\r\n' +
        `${SERVICE_A},"Pantry\r\nweekly\r\n(closed Mondays)",active\r\n` +
        `${SERVICE_B},"Meals\r\nhot","active\r\n${SERVICE_C},C,active\r\n`,
    });
    const file = join(dir, 'services.csv');
    expect(await collect(readTabularPackage(dir))).toEqual([
      expect.objectContaining({
        source: { file, row: 1 },
        value: expect.objectContaining({ id: SERVICE_A }),
      }),
      {
        source: { file, row: 2 },
        entity: 'service',
        error:
          'the table is not valid CSV (a quoted field opened on line 6 is never closed); the rest of it was not read',
      },
    ]);
  });

  it('reads every row of a table of many chunks before a quoted cell left open at its end', async () => {
    const rows = 5_000;
    const row = (index: number) =>
      `a0000000-0000-4000-8000-${String(index).padStart(12, '0')},"Service ${index}, in a row long enough",active\n`;
    const text =
      'id,name,status\n' + Array.from({ length: rows }, (_, index) => row(index)).join('') + '"x,y\n';
    expect(text.length).toBeGreaterThan(4 * 64 * 1024);
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv': text,
    });
    const records = await collect(readTabularPackage(dir));
    expect(records).toHaveLength(rows + 1);
    expect(records.filter((record) => record.value !== undefined).map((record) => record.source.row)).toEqual(
      Array.from({ length: rows }, (_, index) => index + 1),
    );
    expect(records.at(-1)).toMatchObject({
      source: { row: rows + 1 },
      error: expect.stringContaining(`a quoted field opened on line ${rows + 2} is never closed`),
    });
  });
});

describe('reading a tabular-form package that is not UTF-8', () => {
  const latin1 = (text: string) => Buffer.from(text, 'latin1');

  it('rejects a row with bytes that are not UTF-8 alone, naming the offset in the file, and reads the others', async () => {
    const header = 'id,name,status\r\n';
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv': Buffer.concat([
        Buffer.from(`${header}${SERVICE_A},"Café, ""hot""\nmeals",active\r\n`),
        latin1(`${SERVICE_B},Café,active\r\n`),
        Buffer.from(`${SERVICE_C},Crèche 😀,active`),
      ]),
    });
    const file = join(dir, 'services.csv');
    const bytes = await readFile(file);
    // The é of the second data row: the first 0xE9 byte not part of a UTF-8 é.
    const offset = bytes.indexOf(latin1(`${SERVICE_B},Caf`)) + SERVICE_B.length + 4;
    expect(bytes[offset]).toBe(0xe9);
    expect(await collect(readTabularPackage(dir))).toEqual([
      expect.objectContaining({
        source: { file, row: 1 },
        value: expect.objectContaining({ id: SERVICE_A }),
      }),
      { source: { file, row: 2 }, entity: 'service', error: `invalid UTF-8 at byte ${offset}` },
      expect.objectContaining({
        source: { file, row: 3 },
        value: { id: SERVICE_C, name: 'Crèche 😀', status: 'active' },
      }),
    ]);
  });

  it('leaves a table whose header names a column twice unread, at row 0, naming the column', async () => {
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv': `id,name,status, name\n${SERVICE_A},A,active,B\n`,
    });
    expect(await collect(readTabularPackage(dir))).toEqual([
      {
        source: { file: join(dir, 'services.csv'), row: 0 },
        entity: 'service',
        error: 'the header row names the column "name" twice; the table was not read',
      },
    ]);
  });

  it('leaves a table whose header row is not UTF-8 unread, at row 0', async () => {
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv': latin1(`id,name,status,d\xe9tail\n${SERVICE_A},A,active,x\n`),
    });
    expect(await collect(readTabularPackage(dir))).toEqual([
      {
        source: { file: join(dir, 'services.csv'), row: 0 },
        entity: 'service',
        error: 'the header row has invalid UTF-8 at byte 16; the table was not read',
      },
    ]);
  });

  it('refuses a UTF-16 table whole, with one error naming the encoding, and reads the other tables', async () => {
    const text = `id,name,status\n${SERVICE_A},A,active\n${SERVICE_B},B,active\n`;
    for (const [bytes, encoding] of [
      [Buffer.from(`\uFEFF${text}`, 'utf16le'), 'UTF-16LE'],
      [Buffer.from(text, 'utf16le').swap16(), 'UTF-16BE'],
    ] as const) {
      const dir = await writePackage(
        [
          resource('service', 'services.csv', serviceFields),
          resource('taxonomy', 'taxonomies.csv', [field('id'), field('name')]),
        ],
        { 'services.csv': bytes, 'taxonomies.csv': `id,name\n${TAXONOMY},Needs\n` },
      );
      const records = await collect(readTabularPackage(dir));
      expect(records, encoding).toEqual([
        expect.objectContaining({ entity: 'taxonomy', value: { id: TAXONOMY, name: 'Needs' } }),
        {
          source: { file: join(dir, 'services.csv') },
          entity: 'service',
          error: `the file is ${encoding}, not UTF-8: convert it to UTF-8 first (e.g. iconv -f ${encoding} -t UTF-8)`,
        },
      ]);
    }
  });

  it('refuses a data package descriptor that is not UTF-8, saying so', async () => {
    const dir = await writePackage([], {});
    await writeFile(join(dir, 'datapackage.json'), latin1('{"name": "caf\xe9", "resources": []}'));
    expect(await collect(readTabularPackage(dir))).toEqual([
      {
        source: { file: join(dir, 'datapackage.json') },
        error: 'cannot read the data package: invalid UTF-8 at byte 13',
      },
    ]);
  });
});

describe('importing a tabular-form package', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let db: Db;
  /** Imports a package of these tables, written from these files' texts. */
  const loadPackage = async (tables: object[], files: Record<string, string>) =>
    importRecords(db, readTabularPackage(await writePackage(tables, files)));

  beforeAll(async () => {
    testDatabase = await startTestDatabase();
    database = new Database({
      uri: testDatabase.uri,
      dbName: testDatabase.db.databaseName,
      timeoutMs: 2000,
      logger: createLogger('silent'),
    });
    await database.ensureIndexes();
    db = database.db;
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.close();
  });

  it('rejects only the row with a bad cell, naming the file, row and column, and loads the rest', async () => {
    const dir = await writePackage(
      [resource('service', 'services.csv', serviceFields), resource('widget', 'widgets.csv', [field('id')])],
      {
        'services.csv':
          'id,name,status,minimum_age\n' +
          `${SERVICE_A},A,active,12\n${SERVICE_B},B,active,twelve\n${SERVICE_C},C,active,\n`,
        'widgets.csv': 'id\n1\n',
      },
    );
    const report = await importRecords(db, readTabularPackage(dir));
    const file = join(dir, 'services.csv');
    expect(report).toMatchObject({ inserted: 2, rejected: 1 });
    expect(report.byType.service).toEqual({ inserted: 2, updated: 0, unchanged: 0, rejected: 1 });
    expect(report.rejections).toEqual([
      { at: `${file} row 2`, message: 'column minimum_age: "twelve" is not an integer' },
    ]);
    // The table of no entity is told of, not counted as a rejected record.
    expect(report.warnings).toContainEqual(
      expect.stringContaining(`${join(dir, 'widgets.csv')}: table widget`),
    );
    const stored = await db.collection(rowCollection('service')).find({}).sort({ _id: 1 }).toArray();
    expect(stored.map((row) => [row._id, row.minimum_age])).toEqual([
      [SERVICE_A, 12],
      [SERVICE_C, undefined],
    ]);
    const services = await db.collection('services').countDocuments();
    expect(services).toBe(2);
  });

  it('rejects a row the HSDS row schema refuses, with its file and row', async () => {
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv': `id,name,status\nnot-a-uuid,A,active\n`,
    });
    const report = await importRecords(db, readTabularPackage(dir));
    expect(report.rejected).toBe(1);
    expect(report.rejections[0]).toMatchObject({ at: `${join(dir, 'services.csv')} row 1`, path: '$.id' });
  });

  it('rejects a row with a column named __proto__ as a reserved field name, and loads the others', async () => {
    const dir = await writePackage([resource('service', 'services.csv', serviceFields)], {
      'services.csv': `id,name,status,__proto__\n${SERVICE_A},A,active,x\n${SERVICE_B},B,active,\n`,
    });
    const report = await importRecords(db, readTabularPackage(dir));
    expect(report).toMatchObject({ inserted: 1, rejected: 1 });
    expect(report.rejections).toEqual([
      {
        at: `${join(dir, 'services.csv')} row 1`,
        path: '$.__proto__',
        message: expect.stringMatching(/^field name "__proto__" is reserved/),
      },
    ]);
  });

  const SERVICE = 'c0000000-0000-4000-8000-000000000004';
  const ORGANIZATION = 'c0000000-0000-4000-8000-000000000001';
  const LOCATION = 'c0000000-0000-4000-8000-000000000002';
  const PHONE = 'c0000000-0000-4000-8000-000000000003';
  const tables = (phoneLinks: string, serviceOrganization: string) => ({
    'organizations.csv': `id,name,description\n${ORGANIZATION},Harbor,Food\n`,
    'services.csv': `id,organization_id,name,status\n${SERVICE},${serviceOrganization},Pantry,active\n`,
    'locations.csv': `id,organization_id,location_type,name\n${LOCATION},${ORGANIZATION},physical,Hall\n`,
    'phones.csv': `id,service_id,location_id,number\n${PHONE},${phoneLinks},555-0100\n`,
  });
  const resources = [
    resource('organization', 'organizations.csv', [field('id'), field('name'), field('description')]),
    resource('service', 'services.csv', [
      field('id'),
      field('organization_id'),
      field('name'),
      field('status'),
    ]),
    resource('location', 'locations.csv', [
      field('id'),
      field('organization_id'),
      field('location_type'),
      field('name'),
    ]),
    resource('phone', 'phones.csv', [
      field('id'),
      field('service_id'),
      field('location_id'),
      field('number'),
    ]),
  ];

  it('an empty foreign key cell unlinks the row from the parent it named before', async () => {
    const load = async (files: Record<string, string>) =>
      importRecords(db, readTabularPackage(await writePackage(resources, files)));
    await load(tables(`${SERVICE},`, ORGANIZATION));
    const service = () => servedRecord(db, 'services', SERVICE);
    expect(await service()).toMatchObject({ organization: { id: ORGANIZATION }, phones: [{ id: PHONE }] });

    // The phone moves from the service to the location: the service's and the organization's served
    // records (the organization shows its locations) change with it, so their unchanged rows count
    // updated; then the service loses its organization.
    expect(await load(tables(`,${LOCATION}`, ORGANIZATION))).toMatchObject({ updated: 3, unchanged: 1 });
    expect(await service()).not.toHaveProperty('phones');
    const phoneRow = await db.collection(rowCollection('phone')).findOne({ _id: PHONE as never });
    expect(phoneRow).toMatchObject({ location_id: LOCATION });
    expect(phoneRow).not.toHaveProperty('service_id');
    expect(await load(tables(`,${LOCATION}`, ''))).toMatchObject({ updated: 1, unchanged: 3 });
    expect(await service()).not.toHaveProperty('organization');

    // Tables without a link column say nothing about those links: linked again, then given without them.
    await load(tables(`${SERVICE},`, ORGANIZATION));
    const withoutLinkColumns = [
      resource('service', 'services.csv', [field('id'), field('name'), field('status')]),
      resource('phone', 'phones.csv', [field('id'), field('number')]),
    ];
    const dir = await writePackage(withoutLinkColumns, {
      'services.csv': `id,name,status\n${SERVICE},Pantry (renamed),active\n`,
      'phones.csv': `id,number\n${PHONE},555-0199\n`,
    });
    expect(await importRecords(db, readTabularPackage(dir))).toMatchObject({ updated: 2, rejected: 0 });
    expect(await service()).toMatchObject({
      name: 'Pantry (renamed)',
      organization: { id: ORGANIZATION },
      phones: [{ id: PHONE, number: '555-0199' }],
    });
  });
  it('keeps the entities a row shows (a program, a location) when its table has no column naming them', async () => {
    const SERVICE = 'c0000000-0000-4000-8000-000000000011';
    const PROGRAM = 'c0000000-0000-4000-8000-000000000012';
    const PAIRING = 'c0000000-0000-4000-8000-000000000013';
    const first = await loadPackage(
      [
        resource('organization', 'organizations.csv', strings('id', 'name', 'description')),
        resource('program', 'programs.csv', strings('id', 'organization_id', 'name', 'description')),
        resource('service', 'services.csv', strings('id', 'program_id', 'name', 'status')),
        resource('location', 'locations.csv', strings('id', 'location_type', 'name')),
        resource(
          'service_at_location',
          'service_at_locations.csv',
          strings('id', 'service_id', 'location_id'),
        ),
      ],
      {
        'organizations.csv': `id,name,description\n${ORGANIZATION},Harbor,Food\n`,
        'programs.csv': `id,organization_id,name,description\n${PROGRAM},${ORGANIZATION},Food for all,Meals\n`,
        'services.csv': `id,program_id,name,status\n${SERVICE},${PROGRAM},Meals,active\n`,
        'locations.csv': `id,location_type,name\n${LOCATION},physical,Hall\n`,
        'service_at_locations.csv': `id,service_id,location_id\n${PAIRING},${SERVICE},${LOCATION}\n`,
      },
    );
    expect(first).toMatchObject({ rejected: 0 });
    const shown = {
      program: { id: PROGRAM },
      service_at_locations: [{ id: PAIRING, location: { id: LOCATION } }],
    };
    expect(await servedRecord(db, 'services', SERVICE)).toMatchObject(shown);
    // Given again by tables without those columns: renamed, still showing its program and location.
    const report = await loadPackage(
      [
        resource('service', 'services.csv', strings('id', 'name', 'status')),
        resource(
          'service_at_location',
          'service_at_locations.csv',
          strings('id', 'service_id', 'description'),
        ),
      ],
      {
        'services.csv': `id,name,status\n${SERVICE},Meals (renamed),active\n`,
        'service_at_locations.csv': `id,service_id,description\n${PAIRING},${SERVICE},At the hall\n`,
      },
    );
    expect(report).toMatchObject({ rejected: 0 });
    expect(await servedRecord(db, 'services', SERVICE)).toMatchObject({
      ...shown,
      name: 'Meals (renamed)',
      service_at_locations: [{ id: PAIRING, description: 'At the hall', location: { id: LOCATION } }],
    });
    expect(await db.collection(rowCollection('service')).findOne({ _id: SERVICE as never })).toMatchObject({
      program_id: PROGRAM,
    });
  });

  it('keeps a broader term and a parent organization when their table has no column naming them', async () => {
    const BROADER = 'c0000000-0000-4000-8000-000000000021';
    const NARROWER = 'c0000000-0000-4000-8000-000000000022';
    const PARENT = 'c0000000-0000-4000-8000-000000000023';
    const CHILD = 'c0000000-0000-4000-8000-000000000024';
    const first = await loadPackage(
      [
        resource('taxonomy_term', 'taxonomy_terms.csv', strings('id', 'name', 'description', 'parent_id')),
        resource(
          'organization',
          'organizations.csv',
          strings('id', 'name', 'description', 'parent_organization_id'),
        ),
      ],
      {
        'taxonomy_terms.csv': `id,name,description,parent_id\n${BROADER},Food,Food,\n${NARROWER},Meals,Meals,${BROADER}\n`,
        'organizations.csv': `id,name,description,parent_organization_id\n${PARENT},County,All,\n${CHILD},Pantry,Food,${PARENT}\n`,
      },
    );
    expect(first).toMatchObject({ rejected: 0 });
    // Given again by tables without those columns: renamed, still under their parents.
    const report = await loadPackage(
      [
        resource('taxonomy_term', 'taxonomy_terms.csv', strings('id', 'name', 'description')),
        resource('organization', 'organizations.csv', strings('id', 'name', 'description')),
      ],
      {
        'taxonomy_terms.csv': `id,name,description\n${NARROWER},Hot meals,Meals\n`,
        'organizations.csv': `id,name,description\n${CHILD},Food pantry,Food\n`,
      },
    );
    expect(report).toMatchObject({ rejected: 0 });
    expect(await servedRecord(db, 'taxonomy_terms', NARROWER)).toMatchObject({
      name: 'Hot meals',
      parent_id: BROADER,
    });
    expect(await servedRecord(db, 'organizations', CHILD)).toMatchObject({
      name: 'Food pantry',
      parent_organization_id: PARENT,
    });
  });

  it('shows rows of owned entities under a parent whose record keeps its own, until that record gives the list again', async () => {
    const SERVICE = 'c0000000-0000-4000-8000-000000000007';
    const PHONE = 'c0000000-0000-4000-8000-000000000008';
    const PHONE_KEPT = 'c0000000-0000-4000-8000-000000000005';
    const record = (number: string) => ({
      id: SERVICE,
      name: 'Pantry',
      status: 'active',
      phones: [
        { id: PHONE_KEPT, number },
        { id: PHONE, number: '555-0100' },
      ],
    });
    await importLines(db, [record('555-0001')]);
    // Kept inside the service's row, not as rows of their own.
    const phoneRows = db.collection(rowCollection('phone'));
    expect(await phoneRows.findOne({ _id: PHONE_KEPT as never })).toBeNull();
    expect(await db.collection(rowCollection('service')).findOne({ _id: SERVICE as never })).toMatchObject({
      phones: [{ id: PHONE_KEPT }, { id: PHONE }],
    });
    const PHONE_ROW = 'c0000000-0000-4000-8000-000000000006';
    const phones = [resource('phone', 'phones.csv', [field('id'), field('service_id'), field('number')])];
    const dir = await writePackage(phones, {
      'phones.csv': `id,service_id,number
${PHONE_ROW},${SERVICE},555-0200
${PHONE},${SERVICE},555-0199
`,
    });
    expect(await importRecords(db, readTabularPackage(dir))).toMatchObject({ inserted: 2, rejected: 0 });
    const service = () => servedRecord(db, 'services', SERVICE);
    // The row with a kept phone's id is shown in its place; the other after the kept ones.
    expect((await service())?.phones).toEqual([
      { id: PHONE_KEPT, number: '555-0001', service_id: SERVICE },
      { id: PHONE, number: '555-0199', service_id: SERVICE },
      { id: PHONE_ROW, number: '555-0200', service_id: SERVICE },
    ]);
    // The record given again replaces its list, rows included; given unchanged again, nothing changes.
    expect(await importLines(db, [record('555-0002')])).toMatchObject({ updated: 1 });
    expect((await service())?.phones).toEqual([
      { id: PHONE_KEPT, number: '555-0002', service_id: SERVICE },
      { id: PHONE, number: '555-0100', service_id: SERVICE },
    ]);
    expect(await importLines(db, [record('555-0002')])).toMatchObject({ unchanged: 1 });
  });

  it('shows a tabular row in place of a kept item with what that item nests, and none under a kept item', async () => {
    const SERVICE = 'c0000000-0000-4000-8000-000000000009';
    const CONTACT = 'c0000000-0000-4000-8000-00000000000a';
    const PHONE = 'c0000000-0000-4000-8000-00000000000b';
    const LANGUAGE = 'c0000000-0000-4000-8000-00000000000c';
    const PHONE_ROW = 'c0000000-0000-4000-8000-00000000000d';
    const CONTACT_KEPT = 'c0000000-0000-4000-8000-00000000000e';
    await importLines(db, [
      {
        id: SERVICE,
        name: 'Pantry',
        status: 'active',
        contacts: [
          { id: CONTACT, name: 'Ana', phones: [{ id: PHONE, number: '555-0001' }] },
          { id: CONTACT_KEPT, name: 'Bo' },
        ],
        phones: [{ id: PHONE, number: '555-0001', languages: [{ id: LANGUAGE, name: 'Spanish' }] }],
      },
    ]);
    const dir = await writePackage(
      [
        resource('contact', 'contacts.csv', [field('id'), field('service_id'), field('name')]),
        resource('phone', 'phones.csv', [
          field('id'),
          field('service_id'),
          field('contact_id'),
          field('number'),
        ]),
      ],
      {
        'contacts.csv': `id,service_id,name\n${CONTACT},${SERVICE},Ana María\n`,
        // The first replaces the service's kept phone; the second names a contact kept inside the service
        // (not a row), under which no row is shown.
        'phones.csv': `id,service_id,contact_id,number\n${PHONE},${SERVICE},,555-0003\n${PHONE_ROW},,${CONTACT_KEPT},555-0009\n`,
      },
    );
    expect(await importRecords(db, readTabularPackage(dir))).toMatchObject({ rejected: 0 });
    const service = await servedRecord(db, 'services', SERVICE);
    expect(service?.contacts).toEqual([
      {
        id: CONTACT,
        service_id: SERVICE,
        name: 'Ana María',
        phones: [{ id: PHONE, number: '555-0001', contact_id: CONTACT }],
      },
      { id: CONTACT_KEPT, name: 'Bo', service_id: SERVICE },
    ]);
    expect(service?.phones).toEqual([
      {
        id: PHONE,
        service_id: SERVICE,
        number: '555-0003',
        languages: [{ id: LANGUAGE, name: 'Spanish', phone_id: PHONE }],
      },
    ]);
  });
});
