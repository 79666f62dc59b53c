import { describe, expect, it } from 'vitest';
import { validateGeoKeys } from '../../src/geo/index.ts';
import { CENTRAL_PARK_WITHOUT_RESERVOIR, PENN_STATION, point } from './places.ts';

const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
};

describe('validateGeoKeys', () => {
  it.each([
    [{ _id: 1 }],
    [{ _id: 1, loc: null }],
    [{ _id: 1, loc: [] }],
    [{ _id: 1, loc: PENN_STATION }],
    [{ _id: 1, loc: { lng: PENN_STATION[0], lat: PENN_STATION[1] } }],
    [{ _id: 1, loc: point(PENN_STATION) }],
    [{ _id: 1, loc: CENTRAL_PARK_WITHOUT_RESERVOIR }],
    [{ _id: 1, loc: { type: 'LineString', coordinates: [PENN_STATION, [-73.98, 40.76]] } }],
  ])('accepts %j', (doc) => {
    expect(() => validateGeoKeys(doc, 'loc')).not.toThrow();
  });

  it('checks every element of a multikey path', () => {
    expect(() =>
      validateGeoKeys({ sites: [{ at: point(PENN_STATION) }, { at: point([0, 0]) }] }, 'sites.at'),
    ).not.toThrow();
    expect(
      thrown(() => validateGeoKeys({ sites: [{ at: point(PENN_STATION) }, { at: null }] }, 'sites.at')),
    ).toMatchObject({
      message: expect.stringContaining('geo element must be an array or object: at: null'),
    });
  });

  it.each([
    [point([-200, 40]), 'Longitude/latitude is out of bounds, lng: -200 lat: 40'],
    [[181, 0], "can't project geometry into spherical CRS: [ 181, 0 ]"],
    [{ type: 'Point' }, 'Point must be an array or object, instead got type missing'],
    ['downtown', 'geo element must be an array or object: loc: "downtown"'],
    [[PENN_STATION, PENN_STATION], 'Point must only contain numeric elements, instead got type array'],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      },
      'Loop is not closed, first vertex does not equal last vertex: [ [ 0, 0 ], [ 1, 0 ], [ 1, 1 ], [ 0, 1 ] ]',
    ],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [3, 0],
            [3, 3],
            [0, 3],
            [0, 0],
          ],
          [
            [5, 5],
            [6, 5],
            [6, 6],
            [5, 5],
          ],
        ],
      },
      'Secondary loops not contained by first exterior loop - secondary loops must be holes',
    ],
    [
      { type: 'Circle', coordinates: PENN_STATION },
      'unknown GeoJSON type: { type: "Circle", coordinates: [ -73.9935, 40.7506 ] }',
    ],
  ])('rejects %j with Location16755', (loc, reason) => {
    const doc = { _id: 7, loc };
    const error = thrown(() => validateGeoKeys(doc, 'loc')) as {
      code: number;
      codeName: string;
      message: string;
    };
    expect(error).toMatchObject({ code: 16755, codeName: 'Location16755' });
    expect(error.message).toMatch(/^Can't extract geo keys: \{ _id: 7, loc: .* \} {2}/);
    expect(error.message).toContain(reason);
  });
});
