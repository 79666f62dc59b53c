import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gazetteer } from '../../src/geo/gazetteer.ts';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hsds-gazetteer-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function csvFile(name: string, text: string): Promise<string> {
  const file = join(folder, name);
  await writeFile(file, text);
  return file;
}

describe('the gazetteer', () => {
  it('knows US ZIP codes, and a ZIP+4 code by its ZIP', () => {
    const gazetteer = new Gazetteer();
    const zip = gazetteer.lookup('98118');
    expect(zip?.latitude).toBeCloseTo(47.54, 1);
    expect(zip?.longitude).toBeCloseTo(-122.27, 1);
    expect(gazetteer.lookup('98118-1234')).toEqual(zip);
    expect(gazetteer.lookup('00000')).toBeUndefined();
  });

  it('loads postcodes from a CSV as the ONS Postcode Directory writes it: quoted cells, commas inside', async () => {
    const file = await csvFile(
      'onspd.csv',
      '\uFEFF"pcd","pcds","name","lat","long"\r\n' +
        '"SW1A1AA","SW1A 1AA","Buckingham Palace, London",51.501009,-0.141588\r\n' +
        '"EC1A1BB","EC1A 1BB","St Bartholomew\'s, ""Barts"", City",51.520180,-0.097630\r\n' +
        // Terminated postcodes without a position, and positions out of range, are skipped.
        '"ZZ991ZZ","ZZ99 1ZZ","none",,\r\n' +
        '"ZZ992ZZ","ZZ99 2ZZ","bad",99.9,0\r\n',
    );
    const gazetteer = new Gazetteer();
    expect(await gazetteer.loadCsv(file)).toBe(2);
    expect(gazetteer.lookup('sw1a 1aa')).toEqual({ latitude: 51.501009, longitude: -0.141588 });
    expect(gazetteer.lookup('EC1A1BB')).toEqual({ latitude: 51.52018, longitude: -0.09763 });
    expect(gazetteer.lookup('ZZ99 1ZZ')).toBeUndefined();
    expect(gazetteer.lookup('ZZ99 2ZZ')).toBeUndefined();
  });

  it('refuses a CSV with a quoted cell never closed, naming the line it opens on', async () => {
    const file = await csvFile(
      'unclosed.csv',
      'postcode,lat,long\r\n"SW1A 1AA",51.501009,-0.141588\r\n"EC1A 1BB,51.520180,-0.097630\r\n',
    );
    await expect(new Gazetteer().loadCsv(file)).rejects.toThrow(
      /^a quoted field opened on line 3 is never closed$/,
    );
  });

  it('refuses a CSV whose header does not name the columns it needs', async () => {
    const file = await csvFile('bad.csv', 'code,x,y\nSW1A 1AA,51.5,-0.14\n');
    await expect(new Gazetteer().loadCsv(file)).rejects.toThrow(/must name postcode, latitude and longitude/);
  });
});
