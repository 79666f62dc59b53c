import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { termsIn, wordsIn } from '../../src/search/keywords.ts';
import { documentCollection } from '../../src/db/collections.ts';
import { rebuildAllDocuments } from '../../src/ingest/rebuild-all.ts';
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

  it('keep a word with an apostrophe inside it whole, without the apostrophe', () => {
    expect(wordsIn("Veteran's O’Brien rock 'n' roll Veterans' 'quoted'")).toEqual([
      'veterans',
      'obrien',
      'rock',
      'n',
      'roll',
      'veterans',
      'quoted',
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
  const OFFERED = '33333333-3333-4333-8333-333333333333';
  const VETERANS = '44444444-4444-4444-8444-444444444444';
  const MARYS = '55555555-5555-4555-8555-555555555555';
  const service = (id: string, name: string) => ({ id, name, status: 'active', description: 'Meals.' });

  beforeAll(async () => {
    app = await startTestApp();
    await importLines(app.database.db, [
      service(LODZ, 'Bank Żywności Łódź'),
      service(KITCHEN, 'Łódź Straße Kitchen'),
      { ...service(VETERANS, 'Veterans Assistance'), description: 'Help with benefits.' },
      { ...service(MARYS, 'St. Mary’s Pantry'), description: 'Groceries.' },
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

  it("finds words with an apostrophe typed with or without it: veteran's, St. Mary's", async () => {
    for (const search of ["veteran's", 'veterans', 'veteran'])
      expect(await found(search), search).toEqual([VETERANS]);
    for (const search of ["mary's", 'mary’s pantry', 'marys', 'mary'])
      expect(await found(search), search).toEqual([MARYS]);
  });

  it('finds the words typed with those letters too', async () => {
    expect(await found('Łódź')).toEqual([LODZ, KITCHEN]);
    expect(await found('Łódź Straße')).toEqual([KITCHEN]);
  });

  it('finds a service, and its service at location, by the physical address where it is offered', async () => {
    const address = (id: string, city: string, postal: string, type: string) => ({
      id,
      address_1: '1 Main Street',
      city,
      state_province: 'IL',
      postal_code: postal,
      country: 'US',
      address_type: type,
    });
    const offered = {
      ...service(OFFERED, 'Evening Clinic'),
      service_at_locations: [
        {
          id: '44444444-4444-4444-8444-444444444444',
          location: {
            id: '55555555-5555-4555-8555-555555555555',
            location_type: 'physical',
            name: 'Old Town Hall',
            addresses: [
              address('66666666-6666-4666-8666-666666666666', 'Shelbyville', '62565', 'physical'),
              address('77777777-7777-4777-8777-777777777777', 'Springfield', '62701', 'postal'),
            ],
          },
        },
      ],
    };
    const report = await importLines(app.database.db, [offered]);
    expect(report.rejected).toBe(0);
    expect(await found('Shelbyville')).toEqual([OFFERED]);
    expect(await found('62565 clinics')).toEqual([OFFERED]);
    expect(await found('Springfield')).toEqual([]);
    const pairings = async (search: string) => {
      const response = await fetch(`${app.url}/service_at_locations?search=${encodeURIComponent(search)}`);
      return ((await response.json()) as { contents: { id: string }[] }).contents.map((item) => item.id);
    };
    expect(await pairings('main street shelbyville')).toEqual(['44444444-4444-4444-8444-444444444444']);
    expect(await pairings('springfield')).toEqual([]);
  });

  it('finds a document derived before terms were stemmed by its own words, and by any form once rebuilt', async () => {
    const services = app.database.db.collection(documentCollection.service);
    // As a release before stemming stored it: whole words.
    await services.updateOne({ id: KITCHEN }, { $set: { _search: ['lodz', 'strasse', 'kitchen', 'meals'] } });
    // (Each search differs from the ones before: none is answered from kept answers.)
    expect(await found('kitchen meals')).toEqual([KITCHEN]);
    expect(await found('Meals Kitchen')).toEqual([KITCHEN]);
    // Another form than its own finds it only where that form's stem is the word it holds.
    expect(await found('kitchens')).toEqual([KITCHEN]);
    expect(await found('meal')).toEqual([LODZ, OFFERED]);
    await rebuildAllDocuments(app.database.db);
    expect(await found('MEAL')).toEqual([LODZ, KITCHEN, OFFERED]);
  });
});
