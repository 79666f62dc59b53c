import { describe, expect, it } from 'vitest';
import { distanceMeters, EARTH_RADIUS_METERS } from 'geojson-sphere';
import {
  assertNearIndex,
  assertNoNearOperator,
  orderByNearness,
  planNearQuery,
} from '../../src/geo/index.ts';
import {
  EMPIRE_STATE_BUILDING,
  NEW_YORK_JFK,
  PENN_STATION,
  point,
  STATUE_OF_LIBERTY,
  TIMES_SQUARE,
} from './places.ts';

const docs = [
  { _id: 'liberty', loc: point(STATUE_OF_LIBERTY) },
  { _id: 'times', loc: point(TIMES_SQUARE) },
  { _id: 'nowhere' },
  { _id: 'penn', loc: PENN_STATION },
  { _id: 'jfk', loc: point(NEW_YORK_JFK) },
];

const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
};

describe('planNearQuery', () => {
  it('returns null for a filter without a near clause', () => {
    expect(planNearQuery({ loc: { $geoWithin: { $centerSphere: [PENN_STATION, 0.1] } } })).toBeNull();
  });

  it('plans a GeoJSON $near with distances in metres and strips it from the filter', () => {
    const near = planNearQuery({
      kind: 'office',
      loc: { $near: { $geometry: point(EMPIRE_STATE_BUILDING), $maxDistance: 5000, $minDistance: 100 } },
    })!;
    expect(near).toMatchObject({ path: 'loc', filter: { kind: 'office' }, center: EMPIRE_STATE_BUILDING });
    expect(near.minDistance).toBe(100);
    expect(near.maxDistance).toBe(5000);
    expect(near.distanceOf(docs[1]!)).toBeCloseTo(distanceMeters(EMPIRE_STATE_BUILDING, TIMES_SQUARE), 6);
    expect(near.distanceOf(docs[2]!)).toBeNull();
    expect(orderByNearness(near, docs).map((doc) => doc._id)).toEqual(['penn', 'times']);
  });

  it('converts a legacy $nearSphere radius from radians to metres', () => {
    const near = planNearQuery({
      $and: [{ loc: { $nearSphere: EMPIRE_STATE_BUILDING, $maxDistance: 0.002 } }],
    })!;
    expect(near.maxDistance).toBeCloseTo(0.002 * EARTH_RADIUS_METERS, 6);
    expect(near.filter).toEqual({ $and: [{}] });
    expect(orderByNearness(near, docs).map((doc) => doc._id)).toEqual(['penn', 'times', 'liberty']);
  });

  it('finds the nearest of several stored points', () => {
    const near = planNearQuery({ locs: { $near: { $geometry: point(NEW_YORK_JFK) } } })!;
    const distance = near.distanceOf({ locs: [point(STATUE_OF_LIBERTY), point(TIMES_SQUARE)] });
    expect(distance).toBeCloseTo(distanceMeters(NEW_YORK_JFK, TIMES_SQUARE), 6);
  });

  it.each([
    [
      { a: { $near: { $geometry: point(PENN_STATION) } }, b: { $near: { $geometry: point(PENN_STATION) } } },
      2,
      'Too many geoNear expressions',
    ],
    [
      { $or: [{ loc: { $near: { $geometry: point(PENN_STATION) } } }, { x: 1 }] },
      2,
      'geoNear must be top-level expr',
    ],
    [
      { loc: { $near: { $geometry: point([181, 0]) } } },
      2,
      'invalid point in geo near query $geometry argument',
    ],
    [
      { loc: { $near: { $geometry: point(PENN_STATION), $maxDistance: -1 } } },
      2,
      '$maxDistance must be non-negative',
    ],
    [
      { loc: { $near: { $geometry: point(PENN_STATION) }, $maxDistance: 5 } },
      2,
      'geo near accepts just one argument',
    ],
    [{ loc: { $nearSphere: [200, 0] } }, 2, 'Legacy point is out of bounds for spherical query'],
    [{ loc: { $nearSphere: PENN_STATION, $maxDistance: 'far' } }, 16895, '$maxDistance must be a number'],
    [{ loc: { $near: PENN_STATION } }, 291, 'unable to find index for $geoNear query'],
  ])('rejects %j like MongoDB', (filter, code, message) => {
    const error = thrown(() => planNearQuery(filter)) as { code: number; message: string };
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});

describe('near helpers', () => {
  it('assertNoNearOperator rejects near in count or $match, anywhere in the filter', () => {
    expect(() =>
      assertNoNearOperator({ loc: { $geoWithin: { $centerSphere: [PENN_STATION, 1] } } }, 'count'),
    ).not.toThrow();
    expect(
      thrown(() => assertNoNearOperator({ $or: [{ loc: { $nearSphere: PENN_STATION } }] }, '$match')),
    ).toMatchObject({
      code: 5626500,
      codeName: 'Location5626500',
      message: expect.stringMatching(/^\$geoNear, \$near, and \$nearSphere are not allowed in this context/),
    });
  });

  it('assertNearIndex requires a 2dsphere index on the near path', () => {
    const near = planNearQuery({ loc: { $near: { $geometry: point(PENN_STATION) } } })!;
    expect(() => assertNearIndex(near, [{ key: { loc: '2dsphere' } }])).not.toThrow();
    expect(thrown(() => assertNearIndex(near, [{ key: { other: '2dsphere' } }]))).toMatchObject({
      code: 291,
    });
  });
});
