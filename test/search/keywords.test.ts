import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { termsIn, wordsIn } from '../../src/search/keywords.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { importLines } from '../support/import.ts';

describe('search words', () => {
  it('are lower-cased, without accents, and spelled as typed without the letters Unicode keeps whole', () => {
    expect(wordsIn('Łódź Straße, Søndergade; Œuvre Ærø Þórsmörk İstanbul Café-Bar 24h')).toEqual([
      'lodz',
      'strasse',
      'sondergade',
      'oeuvre',
      'aero',
      'thorsmork',
      'istanbul',
      'cafe',
      'bar',
      '24h',
    ]);
  });
});

describe('search terms', () => {
  it('are the words reduced to their stems, so that forms of a word are one term', () => {
    expect(termsIn('Shelters for Immigrants')).toEqual(termsIn('shelter FOR immigrant'));
    expect(termsIn('counselling')).toEqual(termsIn('counseling'));
    expect(termsIn('Food pantries')).toEqual(termsIn('food pantry'));
    // Numbers and short words are kept as they are.
    expect(termsIn('98125 24h WA')).toEqual(['98125', '24h', 'wa']);
  });
});

describe('search over services', () => {
  let app: TestApp;
  const LODZ = '11111111-1111-4111-8111-111111111111';
  const KITCHEN = '22222222-2222-4222-8222-222222222222';
  const service = (id: string, name: string) => ({ id, name, status: 'active', description: 'Meals.' });

  beforeAll(async () => {
    app = await startTestApp();
    await importLines(app.database.db, [
      service(LODZ, 'Bank Żywności Łódź'),
      service(KITCHEN, 'Łódź Straße Kitchen'),
    ]);
  });
  afterAll(async () => app?.close());

  const found = async (search: string) => {
    const response = await fetch(`${app.url}/services?search=${encodeURIComponent(search)}`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { contents: { id: string }[] };
    return page.contents.map((item) => item.id).sort();
  };

  it('finds "Łódź" typed as "lodz", and "Żywności" as "zywnosci"', async () => {
    expect(await found('lodz zywnosci')).toEqual([LODZ]);
    expect(await found('LODZ')).toEqual([LODZ, KITCHEN]);
    expect(await found('strasse')).toEqual([KITCHEN]);
  });

  it('finds the words typed with those letters too', async () => {
    expect(await found('Łódź')).toEqual([LODZ, KITCHEN]);
    expect(await found('Łódź Straße')).toEqual([KITCHEN]);
  });
});
