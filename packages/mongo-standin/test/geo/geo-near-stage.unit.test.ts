import type { Document } from 'bson';
import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import { distanceMeters } from 'geojson-sphere';
import { runGeoNearStage } from '../../src/geo/index.ts';
import type { Area, Bounds } from '../../src/geo/cells.ts';
import {
  EMPIRE_STATE_BUILDING,
  NEW_YORK_JFK,
  PENN_STATION,
  point,
  STATUE_OF_LIBERTY,
  TIMES_SQUARE,
} from './places.ts';

const ctx = {
  indexes: [
    { key: { _id: 1 }, name: '_id_' },
    { key: { loc: '2dsphere' }, name: 'loc_2dsphere' },
  ],
  compileFilter: (filter: Document) => (doc: Document) => new Query(filter).test(doc),
  namespace: 'hsds.locations',
};

const docs = (): Document[] => [
  { _id: 1, kind: 'landmark', loc: point(STATUE_OF_LIBERTY) },
  { _id: 2, kind: 'station', loc: point(PENN_STATION), meta: { source: 'import' } },
  { _id: 3, kind: 'landmark', loc: point(TIMES_SQUARE) },
  { _id: 4, kind: 'airport', loc: point(NEW_YORK_JFK) },
  { _id: 5, kind: 'unplaced' },
];

/** A source handing the stage every document, whatever region it asks for. */
const every = (list: Document[]) => () => list;

const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
};

describe('runGeoNearStage', () => {
  it('sorts nearest first, sets the distance in metres and leaves the input untouched', () => {
    const input = docs();
    const snapshot = structuredClone(input);
    const out = runGeoNearStage(
      { near: point(EMPIRE_STATE_BUILDING), distanceField: 'meta.distance' },
      every(input),
      ctx,
    );
    expect(out.map((doc) => doc._id)).toEqual([2, 3, 1, 4]);
    expect(out[0]!.meta).toEqual({
      source: 'import',
      distance: distanceMeters(EMPIRE_STATE_BUILDING, PENN_STATION),
    });
    expect(out[1]!.meta.distance).toBeCloseTo(distanceMeters(EMPIRE_STATE_BUILDING, TIMES_SQUARE), 6);
    expect(input).toEqual(snapshot);
  });

  it('applies query, min/max distance, distanceMultiplier and includeLocs', () => {
    const out = runGeoNearStage(
      {
        near: point(EMPIRE_STATE_BUILDING),
        distanceField: 'km',
        distanceMultiplier: 0.001,
        maxDistance: 10_000,
        minDistance: 500,
        query: { kind: 'landmark' },
        includeLocs: 'where',
        spherical: true,
      },
      every(docs()),
      ctx,
    );
    expect(out.map((doc) => [doc._id, doc.where])).toEqual([
      [3, point(TIMES_SQUARE)],
      [1, point(STATUE_OF_LIBERTY)],
    ]);
    expect(out[0]!.km).toBeCloseTo(distanceMeters(EMPIRE_STATE_BUILDING, TIMES_SQUARE) / 1000, 9);
  });

  it('asks its source for the indexed path, the region within the maximum distance and the query', () => {
    const asked: unknown[][] = [];
    runGeoNearStage(
      { near: point(EMPIRE_STATE_BUILDING), distanceField: 'd', maxDistance: 1_000, query: { kind: 'x' } },
      (...request) => {
        asked.push(request);
        return [];
      },
      ctx,
    );
    const [[path, region, query]] = asked as [[string, Area, unknown]];
    expect(path).toBe('loc');
    expect(query).toEqual({ kind: 'x' });
    // 1 km is ~0.009° of latitude: the region is the bounds of that circle, and the circle itself.
    const [{ south, north, west, east }] = region.bounds as [Bounds];
    expect(region.cap?.radius).toBeCloseTo(1_000 / 6_378_100, 12);
    expect(north - EMPIRE_STATE_BUILDING[1]).toBeCloseTo(0.009, 3);
    expect(EMPIRE_STATE_BUILDING[1] - south).toBeCloseTo(0.009, 3);
    expect(west).toBeLessThan(EMPIRE_STATE_BUILDING[0]);
    expect(east).toBeGreaterThan(EMPIRE_STATE_BUILDING[0]);
    runGeoNearStage(
      { near: point(EMPIRE_STATE_BUILDING), distanceField: 'd' },
      (...request) => {
        asked.push(request);
        return [];
      },
      ctx,
    );
    expect(asked[1]![1]).toBe('world');
  });

  it('measures in radians for a legacy pair with spherical: true', () => {
    const [first] = runGeoNearStage(
      { near: EMPIRE_STATE_BUILDING, distanceField: 'd', spherical: true },
      every(docs()),
      ctx,
    );
    expect(first!.d).toBeCloseTo(distanceMeters(EMPIRE_STATE_BUILDING, PENN_STATION) / 6_378_100, 12);
  });

  it('uses key to choose among several 2dsphere indexes and reports MongoDB errors otherwise', () => {
    const twoIndexes = {
      ...ctx,
      indexes: [...ctx.indexes, { key: { area: '2dsphere' }, name: 'area_2dsphere' }],
    };
    expect(
      thrown(() =>
        runGeoNearStage({ near: point(PENN_STATION), distanceField: 'd' }, every(docs()), twoIndexes),
      ),
    ).toMatchObject({
      code: 27,
      codeName: 'IndexNotFound',
      message: 'There is more than one 2dsphere index on hsds.locations; unsure which to use for $geoNear',
    });
    const keyed = runGeoNearStage(
      { near: point(PENN_STATION), distanceField: 'd', key: 'loc' },
      every(docs()),
      twoIndexes,
    );
    expect(keyed[0]!._id).toBe(2);
    const none = { ...ctx, indexes: [{ key: { _id: 1 }, name: '_id_' }] };
    expect(
      thrown(() => runGeoNearStage({ near: point(PENN_STATION), distanceField: 'd' }, every(docs()), none)),
    ).toMatchObject({
      code: 27,
      message: '$geoNear requires a 2d or 2dsphere index, but none were found',
    });
  });

  it.each([
    [{ distanceField: 'd' }, 5860400, "$geoNear requires a 'near' argument"],
    [{ near: point(PENN_STATION) }, 16606, "$geoNear requires a 'distanceField' option as a String"],
    [
      { near: point(PENN_STATION), distanceField: 'd', limit: 5 },
      50858,
      "no longer supports the 'limit' parameter",
    ],
    [
      { near: point(PENN_STATION), distanceField: 'd', maxDistance: -1 },
      2,
      'maxDistance must be nonnegative',
    ],
    [
      { near: point(PENN_STATION), distanceField: 'd', query: { loc: { $near: PENN_STATION } } },
      5626500,
      'not allowed in this context',
    ],
    [{ near: point([0, 100]), distanceField: 'd' }, 2, ''],
    [{ near: PENN_STATION, distanceField: 'd' }, 291, 'unable to find index for $geoNear query'],
    [
      { near: point(PENN_STATION), distanceField: 'd', nearby: true },
      2,
      'Unknown argument to $geoNear: nearby',
    ],
  ])('rejects %j', (spec, code, message) => {
    const error = thrown(() => runGeoNearStage(spec, every(docs()), ctx)) as {
      code: number;
      message: string;
    };
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});
