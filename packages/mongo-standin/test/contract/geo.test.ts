/**
 * Geospatial contract (GeoJSON on a sphere): $geoNear (first stage only, needs a geo index, distances
 * in metres, maxDistance/minDistance, query, key), $geoWithin ($centerSphere in radians,
 * $geometry Polygon/MultiPolygon), $geoIntersects (which stored service areas contain a point),
 * $nearSphere, and coordinate validation (2dsphere key extraction error 16755).
 *
 * Real places are used so distances can be checked against great-circle values computed with the
 * Earth radius MongoDB uses for spherical geometry (6378.1 km).
 */
import { type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { type AnyCollection, collections, idsOf, serverError, sortedStrings } from './shared.ts';

let tdb: TestDatabase;
let fresh: (label: string) => AnyCollection;

/** MongoDB's Earth radius for converting distances to radians ($centerSphere): 6378.1 km. */
const EARTH_RADIUS_M = 6_378_100;

const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
const box = (west: number, south: number, east: number, north: number) => [
  [west, south],
  [east, south],
  [east, north],
  [west, north],
  [west, south],
];

const CHICAGO = [-87.6298, 41.8781] as const;
const cities: Document[] = [
  { _id: 'chicago', kind: 'city', location: point(...CHICAGO) },
  { _id: 'evanston', kind: 'city', location: point(-87.6877, 42.0451) }, // ~19.2 km from Chicago
  { _id: 'gary', kind: 'city', location: point(-87.3464, 41.5934) }, // ~39.5 km
  { _id: 'rockford', kind: 'city', location: point(-89.094, 42.2711) }, // ~128.7 km
  { _id: 'milwaukee', kind: 'office', location: point(-87.9065, 43.0389) }, // ~131.2 km
  { _id: 'springfield', kind: 'city', location: point(-89.6501, 39.7817) }, // ~288.8 km
  { _id: 'stlouis', kind: 'city', location: point(-90.1994, 38.627) }, // ~422.6 km
];
/** Great-circle distance Chicago -> St. Louis on a sphere of radius 6378.1 km (haversine). */
const CHICAGO_STLOUIS_M = 422_604;

const CHICAGOLAND = box(-88.5, 41.3, -87.0, 42.5);
const STLOUIS_AREA = box(-90.5, 38.4, -89.9, 38.9);
const SPRINGFIELD_AREA = box(-89.9, 39.6, -89.4, 40.0);

let places: AnyCollection;

beforeAll(async () => {
  tdb = await startTestDatabase();
  fresh = collections(tdb.db, 'geo');
  places = fresh('places');
  await places.createIndex({ location: '2dsphere' });
  await places.insertMany(cities);
});

afterAll(async () => {
  await tdb?.close();
});

describe('$geoNear', () => {
  it('returns documents nearest first with the spherical distance in metres', async () => {
    const out = await places
      .aggregate([{ $geoNear: { near: point(...CHICAGO), distanceField: 'dist', spherical: true } }])
      .toArray();
    expect(idsOf(out)).toEqual([
      'chicago',
      'evanston',
      'gary',
      'rockford',
      'milwaukee',
      'springfield',
      'stlouis',
    ]);
    expect(out[0]?.dist).toBe(0);
    for (let i = 1; i < out.length; i++) expect(out[i]?.dist).toBeGreaterThan(out[i - 1]?.dist);
    const stlouis = out.find((d) => d._id === 'stlouis');
    // within 0.05%: tells metres on MongoDB's sphere from kilometres, miles, radians or another radius
    expect(Math.abs(stlouis?.dist - CHICAGO_STLOUIS_M)).toBeLessThan(CHICAGO_STLOUIS_M * 0.0005);
    expect(out[0]?.location).toEqual(point(...CHICAGO));
  });

  it('maxDistance and minDistance are in metres', async () => {
    const within50km = await places
      .aggregate([{ $geoNear: { near: point(...CHICAGO), distanceField: 'dist', maxDistance: 50_000 } }])
      .toArray();
    expect(idsOf(within50km)).toEqual(['chicago', 'evanston', 'gary']);

    const ring = await places
      .aggregate([
        {
          $geoNear: {
            near: point(...CHICAGO),
            distanceField: 'dist',
            minDistance: 100_000,
            maxDistance: 300_000,
          },
        },
      ])
      .toArray();
    expect(idsOf(ring)).toEqual(['rockford', 'milwaukee', 'springfield']);
    for (const doc of ring) {
      expect(doc.dist).toBeGreaterThanOrEqual(100_000);
      expect(doc.dist).toBeLessThanOrEqual(300_000);
    }
  });

  it('query filters the candidates and later stages see distanceField', async () => {
    const out = await places
      .aggregate([
        {
          $geoNear: {
            near: point(...CHICAGO),
            distanceField: 'meta.distance',
            query: { kind: 'city', _id: { $ne: 'chicago' } },
            maxDistance: 200_000,
          },
        },
        { $limit: 2 },
        { $project: { _id: 1, km: { $divide: ['$meta.distance', 1000] } } },
      ])
      .toArray();
    expect(idsOf(out)).toEqual(['evanston', 'gary']);
    expect(out[0]?.km).toBeCloseTo(19.198, 1);
    expect(out[1]?.km).toBeCloseTo(39.479, 1);
  });

  it('distanceMultiplier scales the distance and includeLocs reports the matched location', async () => {
    const out = await places
      .aggregate([
        {
          $geoNear: {
            near: point(...CHICAGO),
            distanceField: 'km',
            distanceMultiplier: 0.001,
            includeLocs: 'matched',
            query: { _id: 'stlouis' },
          },
        },
      ])
      .toArray();
    expect(out).toHaveLength(1);
    expect(Math.abs(out[0]?.km - CHICAGO_STLOUIS_M / 1000)).toBeLessThan(0.25);
    expect(out[0]?.matched).toEqual(point(-90.1994, 38.627));
  });

  it('key selects the geo index when the collection has several', async () => {
    const c = fresh('twokeys');
    await c.createIndexes([{ key: { home: '2dsphere' } }, { key: { work: '2dsphere' } }]);
    await c.insertMany([
      { _id: 'a', home: point(...CHICAGO), work: point(-90.1994, 38.627) },
      { _id: 'b', home: point(-90.1994, 38.627), work: point(...CHICAGO) },
    ]);
    const byWork = await c
      .aggregate([{ $geoNear: { near: point(...CHICAGO), distanceField: 'd', key: 'work' } }])
      .toArray();
    expect(idsOf(byWork)).toEqual(['b', 'a']);
    const byHome = await c
      .aggregate([{ $geoNear: { near: point(...CHICAGO), distanceField: 'd', key: 'home' } }])
      .toArray();
    expect(idsOf(byHome)).toEqual(['a', 'b']);
    // without key the index choice is ambiguous
    await serverError(c.aggregate([{ $geoNear: { near: point(...CHICAGO), distanceField: 'd' } }]).toArray());
  });

  it('is only valid as the first stage of a pipeline (code 40602)', async () => {
    const err = await serverError(
      places
        .aggregate([
          { $match: { kind: 'city' } },
          { $geoNear: { near: point(...CHICAGO), distanceField: 'd' } },
        ])
        .toArray(),
    );
    expect(err.code).toBe(40602);
    expect(err.message).toContain('$geoNear');
  });

  it('fails when the collection has no geospatial index', async () => {
    const c = fresh('noindex');
    await c.insertMany(cities);
    const err = await serverError(
      c.aggregate([{ $geoNear: { near: point(...CHICAGO), distanceField: 'd' } }]).toArray(),
    );
    expect(err.message).toMatch(/index/i);
  });

  it('rejects a near point with out-of-range coordinates', async () => {
    await serverError(
      places.aggregate([{ $geoNear: { near: point(200, 10), distanceField: 'd' } }]).toArray(),
    );
  });
});

describe('$geoWithin', () => {
  const within = async (c: AnyCollection, shape: Document) =>
    sortedStrings(idsOf(await c.find({ location: { $geoWithin: shape } }).toArray()));

  it('$centerSphere takes a radius in radians (metres / 6378100), with or without an index', async () => {
    const radius = 50_000 / EARTH_RADIUS_M;
    const expected = ['chicago', 'evanston', 'gary'];
    expect(await within(places, { $centerSphere: [[...CHICAGO], radius] })).toEqual(expected);
    const unindexed = fresh('withinnoindex');
    await unindexed.insertMany(cities);
    expect(await within(unindexed, { $centerSphere: [[...CHICAGO], radius] })).toEqual(expected);
    // 135 km takes in Rockford (~128.7 km) and Milwaukee (~131.2 km) but not Springfield
    expect(await within(places, { $centerSphere: [[...CHICAGO], 135_000 / EARTH_RADIUS_M] })).toEqual([
      'chicago',
      'evanston',
      'gary',
      'milwaukee',
      'rockford',
    ]);
    // 130 km separates Rockford from Milwaukee
    expect(await within(places, { $centerSphere: [[...CHICAGO], 130_000 / EARTH_RADIUS_M] })).toEqual([
      'chicago',
      'evanston',
      'gary',
      'rockford',
    ]);
  });

  it('$geometry Polygon selects the points inside it', async () => {
    expect(await within(places, { $geometry: { type: 'Polygon', coordinates: [CHICAGOLAND] } })).toEqual([
      'chicago',
      'evanston',
      'gary',
    ]);
  });

  it('$geometry MultiPolygon selects the points inside any of its polygons', async () => {
    const shape = { $geometry: { type: 'MultiPolygon', coordinates: [[CHICAGOLAND], [STLOUIS_AREA]] } };
    expect(await within(places, shape)).toEqual(['chicago', 'evanston', 'gary', 'stlouis']);
  });

  it('combines with other conditions', async () => {
    const out = await places
      .find({ kind: 'office', location: { $geoWithin: { $centerSphere: [[...CHICAGO], 0.05] } } })
      .toArray();
    expect(idsOf(out)).toEqual(['milwaukee']);
  });
});

describe('$geoIntersects (service areas containing a point)', () => {
  let areas: AnyCollection;
  beforeAll(async () => {
    areas = fresh('areas');
    await areas.createIndex({ extent: '2dsphere' });
    await areas.insertMany([
      { _id: 'chicagoland', extent: { type: 'Polygon', coordinates: [CHICAGOLAND] } },
      {
        _id: 'downstate',
        extent: { type: 'MultiPolygon', coordinates: [[STLOUIS_AREA], [SPRINGFIELD_AREA]] },
      },
      { _id: 'milwaukee', extent: { type: 'Polygon', coordinates: [box(-88.2, 42.8, -87.7, 43.3)] } },
      // an outer ring with a hole over downtown Chicago
      {
        _id: 'suburbs',
        extent: { type: 'Polygon', coordinates: [CHICAGOLAND, box(-87.7, 41.8, -87.55, 41.95)] },
      },
      { _id: 'evanston-office', extent: point(-87.6877, 42.0451) },
    ]);
  });

  const containing = async (lng: number, lat: number) =>
    sortedStrings(
      idsOf(await areas.find({ extent: { $geoIntersects: { $geometry: point(lng, lat) } } }).toArray()),
    );

  it('finds the polygons that contain the point, honouring holes', async () => {
    expect(await containing(...CHICAGO)).toEqual(['chicagoland']);
    expect(await containing(-87.3464, 41.5934)).toEqual(['chicagoland', 'suburbs']); // Gary
  });

  it('finds a MultiPolygon through any of its parts', async () => {
    expect(await containing(-90.1994, 38.627)).toEqual(['downstate']); // St. Louis
    expect(await containing(-89.6501, 39.7817)).toEqual(['downstate']); // Springfield
    expect(await containing(-87.9065, 43.0389)).toEqual(['milwaukee']);
  });

  it('a stored Point intersects the same point', async () => {
    expect(await containing(-87.6877, 42.0451)).toEqual(['chicagoland', 'evanston-office', 'suburbs']);
  });

  it('finds nothing for a point outside every area', async () => {
    expect(await containing(-40, 30)).toEqual([]);
  });

  it('works on stored points against a query polygon', async () => {
    const out = await places
      .find({ location: { $geoIntersects: { $geometry: { type: 'Polygon', coordinates: [STLOUIS_AREA] } } } })
      .toArray();
    expect(idsOf(out)).toEqual(['stlouis']);
  });

  it('rejects a query point with out-of-range coordinates', async () => {
    await serverError(areas.find({ extent: { $geoIntersects: { $geometry: point(200, 95) } } }).toArray());
  });
});

describe('$nearSphere', () => {
  it('returns documents within $maxDistance metres, nearest first', async () => {
    const out = await places
      .find({ location: { $nearSphere: { $geometry: point(...CHICAGO), $maxDistance: 150_000 } } })
      .toArray();
    expect(idsOf(out)).toEqual(['chicago', 'evanston', 'gary', 'rockford', 'milwaukee']);
  });

  it('honours $minDistance and combines with other conditions', async () => {
    const out = await places
      .find({
        kind: 'city',
        location: {
          $nearSphere: { $geometry: point(...CHICAGO), $minDistance: 30_000, $maxDistance: 300_000 },
        },
      })
      .toArray();
    expect(idsOf(out)).toEqual(['gary', 'rockford', 'springfield']);
  });

  it('fails without a geospatial index', async () => {
    const c = fresh('nearnoindex');
    await c.insertMany(cities);
    await serverError(c.find({ location: { $nearSphere: { $geometry: point(...CHICAGO) } } }).toArray());
  });
});

describe('coordinate validation with a 2dsphere index', () => {
  it('inserting a longitude of 200 fails with "Can\'t extract geo keys" (code 16755)', async () => {
    const c = fresh('badinsert');
    await c.createIndex({ location: '2dsphere' });
    const err = await serverError(c.insertOne({ location: point(200, 10) }));
    expect(err.code).toBe(16755);
    const latErr = await serverError(c.insertOne({ location: point(10, -91) }));
    expect(latErr.code).toBe(16755);
    expect(await c.countDocuments()).toBe(0);
  });

  it('an update that writes out-of-range coordinates fails with 16755 and changes nothing', async () => {
    const c = fresh('badupdate');
    await c.createIndex({ location: '2dsphere' });
    await c.insertOne({ _id: 1, location: point(...CHICAGO) });
    const err = await serverError(c.updateOne({ _id: 1 }, { $set: { 'location.coordinates': [200, 10] } }));
    expect(err.code).toBe(16755);
    expect((await c.findOne({ _id: 1 }))?.location).toEqual(point(...CHICAGO));
  });

  it('building a 2dsphere index over a document with bad coordinates fails with 16755', async () => {
    const c = fresh('badbuild');
    await c.insertMany([{ location: point(...CHICAGO) }, { location: point(200, 10) }]);
    const err = await serverError(c.createIndex({ location: '2dsphere' }));
    expect(err.code).toBe(16755);
    expect((await c.indexes()).map((i) => i.name)).toEqual(['_id_']);
  });
});

describe('multi-location fields', () => {
  it('indexes an array of GeoJSON polygons element by element (multikey 2dsphere)', async () => {
    const database = await startTestDatabase();
    try {
      const areas = database.db.collection('multi_areas');
      await areas.createIndex({ areas: '2dsphere' });
      const square = (lng: number, lat: number) => ({
        type: 'Polygon',
        coordinates: [
          [
            [lng, lat],
            [lng + 0.1, lat],
            [lng + 0.1, lat + 0.1],
            [lng, lat + 0.1],
            [lng, lat],
          ],
        ],
      });
      await areas.insertOne({ name: 'two areas', areas: [square(-122.4, 47.5), square(-87.7, 41.8)] });
      const inSecond = await areas
        .find({ areas: { $geoIntersects: { $geometry: { type: 'Point', coordinates: [-87.65, 41.85] } } } })
        .toArray();
      expect(inSecond.map((document) => document.name)).toEqual(['two areas']);
    } finally {
      await database.close();
    }
  });
});
