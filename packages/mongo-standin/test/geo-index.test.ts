import type { Collection, Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { seededRandom } from './support/seeded-random.ts';
import { planSummary } from './support/query-plan.ts';

/**
 * The 2dsphere index narrows geo queries to the documents in and around their region's cells: it must
 * never leave a match out. Each query runs on a collection with the index and on the same documents
 * without it (a scan testing every one), over geometries placed where cells are awkward: around the
 * antimeridian, near the poles, polygons holding a pole or crossing the date line, lines whose arcs bulge
 * poleward of their ends, arrays of points, legacy pairs.
 */

type LngLat = [number, number];
const rand = seededRandom(20261126);
/** Places where cells are awkward, and ordinary ones. */
const HOTSPOTS: [LngLat, number][] = [
  [[-73.98, 40.75], 0.5], // a city
  [[179.95, -16.5], 0.2], // Fiji, across the antimeridian
  [[-179.95, 51.8], 0.2], // the Aleutians, the other side
  [[10, 89.95], 0.04], // by the north pole
  [[-60, -89.95], 0.04], // by the south pole
  [[0, 0], 0.1], // where the first cells meet
];

function placed(): LngLat {
  if (rand.next() < 0.2) return [rand.between(-180, 180), rand.between(-90, 90)];
  const [[lng, lat], spread] = rand.pick(HOTSPOTS);
  const wrap = (value: number) => (value > 180 ? value - 360 : value < -180 ? value + 360 : value);
  return [
    wrap(lng + rand.between(-spread, spread)),
    Math.max(-90, Math.min(90, lat + rand.between(-spread, spread))),
  ];
}

const point = (at: LngLat) => ({ type: 'Point', coordinates: at });
/** A small quadrilateral around a place (across the antimeridian when the place is near it). */
function square([lng, lat]: LngLat, half: number) {
  const wrap = (value: number) => (value > 180 ? value - 360 : value < -180 ? value + 360 : value);
  const south = Math.max(-89.9, lat - half);
  const north = Math.min(89.9, lat + half);
  const ring = [
    [wrap(lng - half), south],
    [wrap(lng + half), south],
    [wrap(lng + half), north],
    [wrap(lng - half), north],
    [wrap(lng - half), south],
  ];
  return { type: 'Polygon', coordinates: [ring] };
}

function geometry(): unknown {
  const kind = rand.next();
  if (kind < 0.55) return point(placed());
  if (kind < 0.65) return placed(); // a legacy pair
  if (kind < 0.75) return square(placed(), rand.between(0.001, 0.3));
  if (kind < 0.85) {
    // A long line along a parallel's latitude: its great-circle arc bulges toward the pole.
    const [lng, lat] = placed();
    const reach = rand.between(1, 60);
    return {
      type: 'LineString',
      coordinates: [
        [Math.max(-179, lng - reach), lat * 0.9],
        [Math.min(179, lng + reach), lat * 0.9],
      ],
    };
  }
  if (kind < 0.95) return [point(placed()), point(placed())]; // several locations
  return { type: 'MultiPoint', coordinates: [placed(), placed(), placed()] };
}

const HOLDS_NORTH_POLE = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 80],
      [120, 80],
      [-120, 80],
      [0, 80],
    ],
  ],
};

let h: Harness;
/** A placed document: a number (or a name) and its geometry, if any. */
interface Placed {
  _id: number | string;
  loc?: unknown;
}

let indexed: Collection<Placed>;
let scanned: Collection<Placed>;

beforeAll(async () => {
  h = await startHarness();
  const db = h.client.db('geoindex');
  indexed = db.collection<Placed>('indexed');
  scanned = db.collection<Placed>('scanned');
  await indexed.createIndex({ loc: '2dsphere' });
  const docs: Placed[] = Array.from({ length: 1500 }, (_, i) => ({ _id: i, loc: geometry() }));
  docs.push(
    { _id: 'pole', loc: HOLDS_NORTH_POLE },
    {
      _id: 'arc',
      loc: {
        type: 'LineString',
        coordinates: [
          [-10, 61.6],
          [10, 61.6],
        ],
      },
    },
    { _id: 'none' },
    { _id: 'empty', loc: null },
  );
  await indexed.insertMany(docs);
  await scanned.insertMany(docs);
  // Moved and removed documents leave their old cells.
  for (let i = 0; i < 200; i++) {
    const moved = { $set: { loc: geometry() } };
    await indexed.updateOne({ _id: i }, moved);
    await scanned.updateOne({ _id: i }, moved);
  }
  await indexed.deleteMany({ _id: { $lt: 300, $gte: 200 } });
  await scanned.deleteMany({ _id: { $lt: 300, $gte: 200 } });
  // And they are kept across a restart.
  await h.stop();
  h = await startHarness(h.dataDir);
  indexed = h.client.db('geoindex').collection<Placed>('indexed');
  scanned = h.client.db('geoindex').collection<Placed>('scanned');
});

afterAll(async () => {
  await h.dispose();
});

const ids = async (collection: Collection<Placed>, filter: Document) =>
  (await collection.find(filter, { projection: { _id: 1 } }).toArray()).map((doc) => String(doc._id)).sort();

async function sameAsScan(filter: Document): Promise<number> {
  const found = await ids(indexed, filter);
  expect(found).toEqual(await ids(scanned, filter));
  return found.length;
}

const EARTH_RADIUS_METERS = 6_378_100;

/** A stage passing every document on that may read any of its fields: the stages after it get whole ones. */
const WHOLE = { $match: { $expr: true } };

describe('a 2dsphere index', () => {
  it('finds every document $geoWithin a circle that a scan finds, and reads its index for it', async () => {
    let matched = 0;
    for (let i = 0; i < 80; i++) {
      const radius = rand.pick([1e-7, 1e-5, 1e-3, 0.01, 0.05, 0.3]) * rand.between(0.5, 1.5);
      matched += await sameAsScan({ loc: { $geoWithin: { $centerSphere: [placed(), radius] } } });
    }
    expect(matched).toBeGreaterThan(100);
    const explained = await indexed
      .find({ loc: { $geoWithin: { $centerSphere: [[-73.98, 40.75], 0.001] } } })
      .explain('queryPlanner');
    expect(planSummary(explained)).toEqual({ indexes: ['loc_2dsphere'], collectionScan: false });
  });

  it('finds every document that $geoIntersects a point or a polygon, or lies $geoWithin a polygon', async () => {
    let matched = 0;
    for (let i = 0; i < 50; i++) {
      const shape = square(placed(), rand.pick([0.0001, 0.01, 0.2, 2]));
      matched += await sameAsScan({ loc: { $geoIntersects: { $geometry: shape } } });
      matched += await sameAsScan({ loc: { $geoWithin: { $geometry: shape } } });
      matched += await sameAsScan({ loc: { $geoIntersects: { $geometry: point(placed()) } } });
    }
    // Points inside the polygon around the north pole, and on it.
    expect(await sameAsScan({ loc: { $geoIntersects: { $geometry: point([45, 89.99]) } } })).toBeGreaterThan(
      0,
    );
    expect(await sameAsScan({ loc: { $geoIntersects: { $geometry: point([10, 85]) } } })).toBeGreaterThan(0);
    expect(matched).toBeGreaterThan(100);
  });

  it('finds a long line where its arc bulges poleward of its ends', async () => {
    // The great circle through (±10°, 61.6°) peaks at longitude 0 near 61.97° north, across a line of
    // cells from its ends.
    const radians = Math.PI / 180;
    const peak = Math.atan(Math.tan(61.6 * radians) / Math.cos(10 * radians)) / radians;
    const filter = { loc: { $geoIntersects: { $geometry: square([0, peak], 0.02) } } };
    expect(await ids(indexed, filter)).toContain('arc');
    await sameAsScan(filter);
  });

  it('narrows $nearSphere and $geoNear by their maximum distance, nearest first', async () => {
    for (let i = 0; i < 40; i++) {
      const center = placed();
      const metres = rand.pick([10, 1_000, 50_000, 1_000_000]) * rand.between(0.5, 1.5);
      const within = { loc: { $geoWithin: { $centerSphere: [center, metres / EARTH_RADIUS_METERS] } } };
      // Points only: for them, within the circle is within the distance.
      const points = { 'loc.type': 'Point' };
      const expected = await ids(scanned, { $and: [points, within] });
      const near = await indexed
        .find({ ...points, loc: { $nearSphere: { $geometry: point(center), $maxDistance: metres } } })
        .toArray();
      expect(near.map((doc) => String(doc._id)).sort()).toEqual(expected);
      const staged = await indexed
        .aggregate([
          {
            $geoNear: {
              near: point(center),
              distanceField: 'distance',
              maxDistance: metres,
              query: points,
              key: 'loc',
            },
          },
        ])
        .toArray();
      expect(staged.map((doc) => String(doc._id)).sort()).toEqual(expected);
      const distances = staged.map((doc) => doc.distance as number);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
    }
  });

  it('pages a proximity search ($geoNear, $sort by distance, $skip, $limit) as the whole stage does', async () => {
    for (let i = 0; i < 30; i++) {
      const center = placed();
      const geoNear = {
        $geoNear: {
          near: point(center),
          distanceField: 'distance',
          maxDistance: rand.pick([1_000, 50_000, 1_000_000]),
          query: { _id: { $gte: rand.pick([0, 500, 1000]) } },
          key: 'loc',
        },
      };
      const page = [{ $sort: { distance: 1, _id: -1 } }, { $skip: rand.pick([0, 3, 20]) }, { $limit: 10 }];
      const shown = { $project: { loc: 1, distance: 1 } };
      const paged = await indexed.aggregate([geoNear, ...page, shown]).toArray();
      // A stage that may read any field makes the stand-in measure whole documents, then sort them all.
      const whole = await indexed.aggregate([geoNear, WHOLE, ...page, shown]).toArray();
      expect(paged).toEqual(whole);
    }
  });

  it('gives a proximity search and its total in one $facet as over whole documents', async () => {
    // Documents with fields besides their place, which the facet's stages read and show.
    const described = h.client.db('geoindex').collection<{ _id: number }>('described');
    await described.createIndex({ loc: '2dsphere' });
    await described.insertMany(
      Array.from({ length: 600 }, (_, i) => ({
        _id: i,
        loc: point(placed()),
        kind: rand.pick(['shelter', 'food']),
        name: `place ${i}`,
        notes: 'x'.repeat(200),
      })),
    );
    let found = 0;
    for (let i = 0; i < 30; i++) {
      const geoNear = {
        $geoNear: {
          near: point(placed()),
          distanceField: 'distance',
          maxDistance: rand.pick([50_000, 1_000_000, 5_000_000]),
          query: { _id: { $gte: rand.pick([0, 100]) } },
          key: 'loc',
        },
      };
      const facet = {
        $facet: {
          total: [{ $count: 'count' }],
          page: [
            { $match: { kind: 'shelter' } },
            { $sort: { distance: 1, _id: -1 } },
            { $skip: rand.pick([0, 3]) },
            { $limit: 10 },
            { $project: { distance: 1, name: 1 } },
          ],
        },
      };
      const [read] = await described.aggregate([geoNear, facet]).toArray();
      const [whole] = await described.aggregate([geoNear, WHOLE, facet]).toArray();
      expect(read).toEqual(whole);
      found += (read!.page as unknown[]).length;
    }
    expect(found).toBeGreaterThan(20);
  });

  it('keeps what a proximity search reads only until the next write, and unchanged by later stages', async () => {
    // Searches read a few fields of the same candidates again and again: the stand-in keeps them between
    // writes (engine/kept-reads.ts). A write must be seen by the next search, and a stage that changes
    // the documents it is given must not change what a later search is given.
    const kept = h.client.db('geoindex').collection<{ _id: number }>('kept');
    await kept.createIndex({ loc: '2dsphere' });
    // An ordinary place, whatever the tests before drew (near a pole, the documents would lie farther).
    const center: LngLat = [-84.39, 33.75];
    await kept.insertMany(
      Array.from({ length: 50 }, (_, i) => ({
        _id: i,
        loc: point([center[0] + (i % 7) * 1e-3, center[1] + (i % 5) * 1e-3]),
        kind: i % 2 ? 'shelter' : 'food',
      })),
    );
    const geoNear = {
      $geoNear: { near: point(center), distanceField: 'distance', maxDistance: 5_000, key: 'loc' },
    };
    const search = [
      geoNear,
      { $project: { _id: 1, kind: 1, distance: 1 } },
      {
        $facet: {
          total: [{ $count: 'count' }],
          shelters: [{ $match: { kind: 'shelter' } }, { $count: 'n' }],
        },
      },
    ];
    const first = await kept.aggregate(search).toArray();
    expect(first).toEqual([{ total: [{ count: 50 }], shelters: [{ n: 25 }] }]);
    expect(await kept.aggregate(search).toArray()).toEqual(first);

    await kept.updateMany({ _id: { $lt: 10 } }, { $set: { kind: 'shelter' } });
    expect(await kept.aggregate(search).toArray()).toEqual([
      { total: [{ count: 50 }], shelters: [{ n: 30 }] },
    ]);

    const changing = [geoNear, { $project: { loc: 1, kind: 1 } }, { $set: { 'loc.seen': true, kind: 'x' } }];
    for (let round = 0; round < 2; round++) {
      const changed = await kept.aggregate(changing).toArray();
      expect(changed).toHaveLength(50);
      expect(changed.every((doc) => doc.loc.seen === true && doc.kind === 'x')).toBe(true);
    }
    const after = await kept.aggregate([geoNear, { $project: { loc: 1, kind: 1 } }]).toArray();
    expect(after.some((doc) => 'seen' in doc.loc || doc.kind === 'x')).toBe(false);
    expect(after).toEqual(
      await kept.aggregate([geoNear, WHOLE, { $project: { loc: 1, kind: 1 } }]).toArray(),
    );

    // A write that fails changes nothing, and what was kept before it is read again, as it still is.
    await expect(
      kept.updateMany({ _id: { $lt: 5 } }, { $set: { kind: 'gone', loc: point([200, 0]) } }),
    ).rejects.toMatchObject({ code: 16755 });
    expect(await kept.aggregate(search).toArray()).toEqual([
      { total: [{ count: 50 }], shelters: [{ n: 30 }] },
    ]);
  });

  it('refuses a malformed page of a proximity search as it refuses the same stages after any other', async () => {
    const geoNear = {
      $geoNear: { near: point([-73.98, 40.75]), distanceField: 'd', maxDistance: 1_000, key: 'loc' },
    };
    for (const page of [
      [{ $sort: { d: 2 } }, { $limit: 1 }],
      [{ $sort: { d: 1 } }, { $limit: -1 }],
      [{ $sort: { d: 1 } }, { $skip: -1 }, { $limit: 1 }],
    ]) {
      const refusal = (pipeline: Document[]) =>
        indexed
          .aggregate(pipeline)
          .toArray()
          .then(
            () => ({ refused: false }),
            (error: { code: number; message: string }) => ({ code: error.code, message: error.message }),
          );
      const paged = await refusal([geoNear, ...page]);
      expect(paged).toMatchObject({ code: 2 });
      expect(paged).toEqual(await refusal([geoNear, WHOLE, ...page]));
    }
  });

  it('counts with the index what a scan counts', async () => {
    const filter = { loc: { $geoWithin: { $centerSphere: [[-73.98, 40.75], 0.005] } } };
    const count = await indexed.countDocuments(filter);
    expect(count).toBe(await scanned.countDocuments(filter));
    expect(count).toBeGreaterThan(10);
  });
});
