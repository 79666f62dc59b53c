import type { Document } from 'bson';
import { Query } from 'mingo';
import { Context } from 'mingo/core';
import { describe, expect, it } from 'vitest';
import { geoQueryOperators } from '../../src/geo/index.ts';
import {
  ARCTIC_CAP,
  BETHESDA_FOUNTAIN,
  CENTRAL_PARK_WITHOUT_RESERVOIR,
  CHELSEA_10001,
  EMPIRE_STATE_BUILDING,
  FIJI_ACROSS_ANTIMERIDIAN,
  NEW_YORK_JFK,
  PENN_STATION,
  point,
  RESERVOIR_CENTER,
  STATUE_OF_LIBERTY,
  TIMES_SQUARE,
} from './places.ts';

const context = Context.init().addQueryOps(geoQueryOperators);

const namesMatching = (filter: Document, docs: Document[]): string[] =>
  new Query(filter, { context })
    .find<Document>(docs)
    .all()
    .map((doc) => doc.name as string);

const rejection = (filter: Document) => {
  try {
    new Query(filter, { context });
  } catch (error) {
    return error;
  }
  throw new Error('expected the filter to be rejected');
};

const places = [
  { name: 'penn', loc: point(PENN_STATION) },
  { name: 'times', loc: point(TIMES_SQUARE) },
  { name: 'liberty', loc: STATUE_OF_LIBERTY },
  { name: 'bethesda', loc: { lng: BETHESDA_FOUNTAIN[0], lat: BETHESDA_FOUNTAIN[1] } },
  { name: 'reservoir', loc: point(RESERVOIR_CENTER) },
  { name: 'no location' },
  { name: 'not a geometry', loc: 'Manhattan' },
];

describe('$geoWithin with $geometry', () => {
  it('finds the points inside a ZIP-code-sized polygon', () => {
    expect(namesMatching({ loc: { $geoWithin: { $geometry: CHELSEA_10001 } } }, places)).toEqual(['penn']);
  });

  it('respects holes: the reservoir is cut out of Central Park', () => {
    const filter = { loc: { $geoWithin: { $geometry: CENTRAL_PARK_WITHOUT_RESERVOIR } } };
    expect(namesMatching(filter, places)).toEqual(['bethesda']);
  });

  it('accepts a MultiPolygon: within any of its polygons', () => {
    const both = {
      type: 'MultiPolygon',
      coordinates: [CHELSEA_10001.coordinates, CENTRAL_PARK_WITHOUT_RESERVOIR.coordinates],
    };
    expect(namesMatching({ loc: { $geoWithin: { $geometry: both } } }, places)).toEqual(['penn', 'bethesda']);
  });

  it('follows great-circle edges, not lines of constant latitude', () => {
    // The southern edge from (-60, 50) to (60, 50) bulges north to about 67.2° at longitude 0.
    const band = {
      type: 'Polygon',
      coordinates: [
        [
          [-60, 50],
          [60, 50],
          [60, 70],
          [-60, 70],
          [-60, 50],
        ],
      ],
    };
    const docs = [
      { name: 'planar-inside but south of the geodesic', loc: [0, 55] },
      { name: 'inside on the sphere', loc: [0, 75] },
    ];
    expect(namesMatching({ loc: { $geoWithin: { $geometry: band } } }, docs)).toEqual([
      'inside on the sphere',
    ]);
  });

  it('handles a polygon across the antimeridian and one around the pole', () => {
    const docs = [
      { name: 'suva', loc: [178.44, -18.14] },
      { name: 'east of 180', loc: [-179, -17] },
      { name: 'greenwich', loc: [0, -17] },
      { name: 'north pole', loc: [0, 90] },
      { name: 'svalbard', loc: [15.6, 78.2] },
    ];
    expect(namesMatching({ loc: { $geoWithin: { $geometry: FIJI_ACROSS_ANTIMERIDIAN } } }, docs)).toEqual([
      'suva',
      'east of 180',
    ]);
    expect(namesMatching({ loc: { $geoWithin: { $geometry: ARCTIC_CAP } } }, docs)).toEqual(['north pole']);
  });

  it('treats either winding order the same: the polygon is the smaller region', () => {
    const [ring] = CHELSEA_10001.coordinates;
    const reversed = { type: 'Polygon', coordinates: [[...ring!].reverse()] };
    expect(namesMatching({ loc: { $geoWithin: { $geometry: reversed } } }, places)).toEqual(['penn']);
  });

  it('requires every part of a stored line or polygon to be inside', () => {
    const docs = [
      { name: 'short walk', loc: { type: 'LineString', coordinates: [PENN_STATION, [-73.998, 40.75]] } },
      {
        name: 'walk to times square',
        loc: { type: 'LineString', coordinates: [PENN_STATION, TIMES_SQUARE] },
      },
      {
        name: 'block',
        loc: {
          type: 'Polygon',
          coordinates: [
            [
              [-73.996, 40.749],
              [-73.992, 40.749],
              [-73.992, 40.752],
              [-73.996, 40.749],
            ],
          ],
        },
      },
    ];
    expect(namesMatching({ loc: { $geoWithin: { $geometry: CHELSEA_10001 } } }, docs)).toEqual([
      'short walk',
      'block',
    ]);
  });

  it('matches a document when any geometry of a multikey path or array is inside', () => {
    const docs = [
      { name: 'branches', offices: [{ at: point(TIMES_SQUARE) }, { at: point(PENN_STATION) }] },
      { name: 'uptown only', offices: [{ at: point(TIMES_SQUARE) }] },
      { name: 'array of points', at: [point(STATUE_OF_LIBERTY), point(PENN_STATION)] },
      { name: 'array of pairs', at: [STATUE_OF_LIBERTY, PENN_STATION] },
    ];
    const within = { $geoWithin: { $geometry: CHELSEA_10001 } };
    expect(namesMatching({ 'offices.at': within }, docs)).toEqual(['branches']);
    expect(namesMatching({ at: within }, docs)).toEqual(['array of points', 'array of pairs']);
  });

  it('combines with ordinary conditions', () => {
    const filter = {
      name: { $ne: 'penn' },
      loc: { $geoWithin: { $geometry: CENTRAL_PARK_WITHOUT_RESERVOIR } },
    };
    expect(namesMatching(filter, places)).toEqual(['bethesda']);
  });
});

describe('$geoWithin with $centerSphere', () => {
  it('finds points within a radius given in radians (miles / 3963.2)', () => {
    const oneMile = { loc: { $geoWithin: { $centerSphere: [EMPIRE_STATE_BUILDING, 1 / 3963.2] } } };
    expect(namesMatching(oneMile, places)).toEqual(['penn', 'times']);
  });

  it('contains a line only if all of it is inside the cap', () => {
    const docs = [
      { name: 'midtown', loc: { type: 'LineString', coordinates: [PENN_STATION, TIMES_SQUARE] } },
      { name: 'to jfk', loc: { type: 'LineString', coordinates: [PENN_STATION, NEW_YORK_JFK] } },
    ];
    const twoMiles = { loc: { $geoWithin: { $centerSphere: [EMPIRE_STATE_BUILDING, 2 / 3963.2] } } };
    expect(namesMatching(twoMiles, docs)).toEqual(['midtown']);
  });
});

describe('legacy 2d shapes', () => {
  it('tests stored points in the flat longitude/latitude plane', () => {
    const box = {
      loc: {
        $geoWithin: {
          $box: [
            [-74.05, 40.68],
            [-73.99, 40.755],
          ],
        },
      },
    };
    expect(namesMatching(box, places)).toEqual(['penn', 'liberty']);
    const disc = { loc: { $geoWithin: { $center: [EMPIRE_STATE_BUILDING, 0.011] } } };
    expect(namesMatching(disc, places)).toEqual(['penn', 'times']);
    const triangle = {
      loc: {
        $geoWithin: {
          $polygon: [
            [-74.2, 40.6],
            [-73.8, 40.6],
            [-74.2, 41],
          ],
        },
      },
    };
    // The hypotenuse passes between Times Square (inside) and Bethesda Fountain (outside).
    expect(namesMatching(triangle, places)).toEqual(['penn', 'times', 'liberty']);
  });
});

describe('$geoIntersects', () => {
  const areas = [
    { name: 'chelsea', area: CHELSEA_10001 },
    { name: 'central park', area: CENTRAL_PARK_WITHOUT_RESERVOIR },
    { name: 'office', area: point(PENN_STATION) },
    { name: 'both', area: { type: 'MultiPolygon', coordinates: [CHELSEA_10001.coordinates] } },
  ];

  it('finds the stored polygons and points a query point falls in', () => {
    const atPenn = { area: { $geoIntersects: { $geometry: point(PENN_STATION) } } };
    expect(namesMatching(atPenn, areas)).toEqual(['chelsea', 'office', 'both']);
    const atReservoir = { area: { $geoIntersects: { $geometry: point(RESERVOIR_CENTER) } } };
    expect(namesMatching(atReservoir, areas)).toEqual([]);
  });

  it('finds stored geometries overlapping a query polygon', () => {
    const midtown = {
      type: 'Polygon',
      coordinates: [
        [
          [-73.99, 40.748],
          [-73.97, 40.748],
          [-73.97, 40.768],
          [-73.99, 40.768],
          [-73.99, 40.748],
        ],
      ],
    };
    expect(namesMatching({ area: { $geoIntersects: { $geometry: midtown } } }, areas)).toEqual([
      'chelsea',
      'central park',
      'both',
    ]);
  });

  it('accepts a legacy pair as $geometry', () => {
    expect(namesMatching({ area: { $geoIntersects: { $geometry: PENN_STATION } } }, areas)).toContain(
      'office',
    );
  });
});

describe('query validation', () => {
  it.each([
    [{ $geoWithin: { $geometry: point([200, 0]) } }, 'Longitude/latitude is out of bounds, lng: 200 lat: 0'],
    [
      { $geoIntersects: { $geometry: point([-73.5, 95.25]) } },
      'Longitude/latitude is out of bounds, lng: -73.5 lat: 95.25',
    ],
    [
      {
        $geoWithin: {
          $geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 1],
                [1, 0],
              ],
            ],
          },
        },
      },
      'Loop is not closed, first vertex does not equal last vertex: [ [ 0, 0 ], [ 1, 1 ], [ 1, 0 ] ]',
    ],
    [
      {
        $geoWithin: {
          $geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 1],
                [0, 0],
              ],
            ],
          },
        },
      },
      'Loop must have at least 3 different vertices, 2 unique vertices were provided: [ [ 0, 0 ], [ 1, 1 ], [ 0, 0 ] ]',
    ],
    [{ $geoWithin: { $geometry: {} } }, 'unknown GeoJSON type: {}'],
    [{ $geoWithin: { $geometry: point(PENN_STATION) } }, '$within not supported with provided geometry: '],
    [{ $geoWithin: { $centerSphere: [PENN_STATION, -1] } }, 'Radius must be a non-negative number: -1'],
    [
      { $geoWithin: { $circle: [PENN_STATION, 1] } },
      'unknown geo specifier: $circle: [ [ -73.9935, 40.7506 ], 1 ]',
    ],
    [{ $geoWithin: [] }, 'geometry must be an object'],
    [{ $geoWithin: {} }, "geo query doesn't have any geometry"],
    [
      {
        $geoIntersects: {
          $box: [
            [0, 0],
            [1, 1],
          ],
        },
      },
      '$geoIntersect not supported with provided geometry: ',
    ],
  ])('rejects %j with BadValue', (condition, message) => {
    expect(rejection({ loc: condition })).toMatchObject({ code: 2, codeName: 'BadValue' });
    expect((rejection({ loc: condition }) as Error).message).toContain(message);
  });

  it('refuses what the stand-in does not implement, naming it', () => {
    const bigPolygon = {
      ...CHELSEA_10001,
      crs: { type: 'name', properties: { name: 'urn:x-mongodb:crs:strictwinding:EPSG:4326' } },
    };
    expect(rejection({ loc: { $geoWithin: { $geometry: bigPolygon } } })).toMatchObject({
      code: 2,
      message: expect.stringContaining('not supported by the MongoDB stand-in'),
    });
    expect(rejection({ loc: { $geoIntersects: { $centerSphere: [PENN_STATION, 0.1] } } })).toMatchObject({
      code: 2,
      message: expect.stringContaining('not supported by the MongoDB stand-in'),
    });
  });

  it('rejects a self-intersecting (bow-tie) polygon', () => {
    const bowTie = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [2, 2],
          [2, 0],
          [0, 2],
          [0, 0],
        ],
      ],
    };
    expect(rejection({ loc: { $geoWithin: { $geometry: bowTie } } })).toMatchObject({
      code: 2,
      message: expect.stringMatching(/^Loop is not valid: .* Edges \d and \d cross$/),
    });
  });
});
