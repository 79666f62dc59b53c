import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { importLines } from '../support/import.ts';
import { markDirectoryChanged } from '../../src/db/directory-generation.ts';

// Service areas listing ZIP+4 codes, matched however the code is typed (with a dash, a space, or neither).
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const report = await importLines(app.database.db, [
    {
      id: '7d1c2a9e-1f3b-4c5d-8e6f-0a1b2c3d4e5f',
      name: 'Magnolia Home Repairs',
      status: 'active',
      service_areas: [
        { id: '8e2d3b0f-2a4c-4d6e-9f70-1b2c3d4e5f60', extent: '98199-1234; 98188 4321', extent_type: 'text' },
      ],
      service_at_locations: [
        {
          id: '9f3e4c1a-3b5d-4e7f-a081-2c3d4e5f6071',
          location: {
            id: 'a04f5d2b-4c6e-4f80-b192-3d4e5f607182',
            location_type: 'physical',
            latitude: 47.65,
            longitude: -122.4,
          },
        },
      ],
    },
  ]);
  expect(report.rejected).toBe(0);
}, 60_000);
afterAll(async () => app?.close());

const matches = async (postcode: string) => {
  const response = await fetch(`${app.url}/service_at_locations?postcode=${encodeURIComponent(postcode)}`);
  expect(response.status, postcode).toBe(200);
  return ((await response.json()) as { total_items: number }).total_items;
};

describe('postcode: ZIP+4 codes listed in service areas', () => {
  it('match however the code is typed', async () => {
    for (const postcode of ['98199-1234', '98199 1234', '981991234', '98188-4321', '98188 4321', '981884321'])
      expect(await matches(postcode), postcode).toBe(1);
  });

  it('match areas stored before ZIP+4 codes had one spelling (`98199 1234` was kept as `981991234`)', async () => {
    const sals = app.database.db.collection('service_at_locations');
    const [stored] = await sals.find({}).toArray();
    await sals.updateOne({ id: stored!.id }, { $set: { '_geo.postcodes': ['981991234'] } });
    // Changed behind the API's back: marked, so that the answers kept by the test before are not sent.
    await markDirectoryChanged(app.database.db);
    try {
      for (const postcode of ['98199-1234', '98199 1234', '981991234'])
        expect(await matches(postcode), postcode).toBe(1);
    } finally {
      await sals.updateOne({ id: stored!.id }, { $set: { '_geo.postcodes': stored!._geo.postcodes } });
      await markDirectoryChanged(app.database.db);
    }
  });

  it('match only their own code', async () => {
    for (const postcode of ['98199-1235', '981881234']) expect(await matches(postcode), postcode).toBe(0);
  });
});
