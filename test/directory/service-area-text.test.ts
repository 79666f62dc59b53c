import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { importLines } from '../support/import.ts';

// Services at one place in Portland, Maine (04101), told apart by their service areas' text.
const AREAS: Record<string, string | undefined> = {
  'no area': undefined,
  statewide: 'Statewide',
  state: 'Maine',
  labelled: 'ZIP 04101',
  'labelled list': 'Zip codes: 04102; 04103',
  listed: '04101, 04102',
};

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const report = await importLines(
    app.database.db,
    Object.entries(AREAS).map(([name, extent], n) => ({
      id: `5e0a1c2d-0000-4000-8000-00000000000${n}`,
      name: `Areawidget ${name}`,
      status: 'active',
      service_areas:
        extent === undefined
          ? []
          : [{ id: `5e0a1c2d-0000-4000-8000-00000000001${n}`, extent, extent_type: 'text' }],
      service_at_locations: [
        {
          id: `5e0a1c2d-0000-4000-8000-00000000002${n}`,
          location: {
            id: `5e0a1c2d-0000-4000-8000-00000000003${n}`,
            location_type: 'physical',
            latitude: 43.66,
            longitude: -70.26,
          },
        },
      ],
    })),
  );
  expect(report.rejected).toBe(0);
}, 60_000);
afterAll(async () => app?.close());

const found = async (query: string): Promise<string[]> => {
  const response = await fetch(`${app.url}/service_at_locations?search=areawidget&per_page=50&${query}`);
  expect(response.status, query).toBe(200);
  const { contents } = (await response.json()) as { contents: { service: { name: string } }[] };
  return contents.map(({ service }) => service.name.replace('Areawidget ', '')).sort();
};

describe('postcode: service areas given as text', () => {
  it('keep a service whose area names a place, not postcodes, in every postcode search', async () => {
    const everywhere = ['no area', 'state', 'statewide'];
    expect(await found('postcode=04101')).toEqual([...everywhere, 'labelled', 'listed'].sort());
    expect(await found('postcode=04101&proximity=5000')).toEqual(
      [...everywhere, 'labelled', 'listed'].sort(),
    );
    expect(await found('postcode=04103')).toEqual([...everywhere, 'labelled list'].sort());
    expect(await found('postcode=Statewide')).toEqual(everywhere);
  });
});
