import { describe, expect, it } from 'vitest';
import {
  destination,
  distanceMeters,
  distanceToShape,
  EARTH_RADIUS_METERS,
  InvalidGeometry,
  parseGeoJson,
  radiansToMeters,
  shapesIntersect,
  shapeWithinCap,
  shapeWithinPolygons,
  toUnitVector,
  tryParseStoredGeometry,
  type SphericalPolygon,
} from '../src/index.ts';
import {
  CENTRAL_PARK_WITHOUT_RESERVOIR,
  EMPIRE_STATE_BUILDING,
  PENN_STATION,
  point,
  RESERVOIR_CENTER,
  TIMES_SQUARE,
} from './places.ts';
import { polygonBoundaryTouches, polygonCovers, polygonInteriorContains } from '../src/shapes.ts';

const shapeOf = (geometry: Record<string, unknown>) => parseGeoJson(geometry).shape;
const polygonsOf = (geometry: Record<string, unknown>): SphericalPolygon[] =>
  shapeOf(geometry).flatMap((part) => (part.kind === 'polygon' ? [part.polygon] : []));

describe('shapes on the sphere', () => {
  it('cuts holes out of polygons', () => {
    const park = polygonsOf(CENTRAL_PARK_WITHOUT_RESERVOIR);
    expect(shapeWithinPolygons(shapeOf(point(RESERVOIR_CENTER)), park)).toBe(false);
    expect(shapeWithinPolygons(shapeOf(point([-73.9712, 40.774])), park)).toBe(true);
    expect(shapesIntersect(shapeOf(point(PENN_STATION)), shapeOf(CENTRAL_PARK_WITHOUT_RESERVOIR))).toBe(
      false,
    );
  });

  it('tells the inside of a small polygon from points kilometres away, at any distance and either winding', () => {
    // 22 metres square: summing triangles fanned from a point's antipode took points 2 km away for inside.
    const ring = [
      [-0.05002, -0.00423],
      [-0.04982, -0.00423],
      [-0.04982, -0.00403],
      [-0.05002, -0.00403],
      [-0.05002, -0.00423],
    ];
    for (const coordinates of [[ring], [[...ring].reverse()]]) {
      const square = shapeOf({ type: 'Polygon', coordinates });
      expect(shapesIntersect(square, shapeOf(point([-0.04992, -0.00413])))).toBe(true);
      for (const far of [
        [-0.045, 0.0132],
        [-0.0499, -0.0043],
        [1, 1],
        [60, 45],
        [179.95, 0.004], // by the antipode
      ] as [number, number][])
        expect(shapesIntersect(square, shapeOf(point(far)))).toBe(false);
    }
  });

  it('follows great-circle edges, not lines of constant latitude', () => {
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
    expect(shapeWithinPolygons(shapeOf(point([0, 55])), polygonsOf(band))).toBe(false);
    expect(shapeWithinPolygons(shapeOf(point([0, 75])), polygonsOf(band))).toBe(true);
  });

  it('measures distances to shapes in radians of the 6378.1 km sphere', () => {
    const center = toUnitVector(EMPIRE_STATE_BUILDING);
    const radians = distanceToShape(center, shapeOf(point(TIMES_SQUARE)));
    expect(radiansToMeters(radians)).toBeCloseTo(distanceMeters(EMPIRE_STATE_BUILDING, TIMES_SQUARE), 6);
    expect(radiansToMeters(1)).toBe(EARTH_RADIUS_METERS);
    const cap = { center, radius: 2000 / EARTH_RADIUS_METERS };
    expect(shapeWithinCap(shapeOf(point(TIMES_SQUARE)), cap)).toBe(true);
    expect(shapeWithinCap(shapeOf(point(PENN_STATION)), { center, radius: 500 / EARTH_RADIUS_METERS })).toBe(
      false,
    );
  });

  it('throws InvalidGeometry for a geometry MongoDB refuses, and reads stored values leniently', () => {
    expect(() => parseGeoJson(point([200, 0]))).toThrow(InvalidGeometry);
    expect(tryParseStoredGeometry('Manhattan')).toBeUndefined();
    expect(tryParseStoredGeometry([181, 0])).toEqual({
      flatPoint: [181, 0],
      shape: undefined,
      strictWinding: false,
    });
  });
});

describe('a point against a polygon', () => {
  it('is covered exactly when it touches a ring or lies inside the shell and outside the holes', () => {
    // polygonCovers passes over points clear of a cap around the shell: it must agree with the rings'
    // own tests everywhere: on and just beyond the rim, in holes, near and far, around a pole, for rings
    // from metres to thousands of kilometres across.
    let state = 20261127;
    const next = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
    const between = (low: number, high: number) => low + next() * (high - low);
    const DEGREES = 180 / Math.PI;
    const away = (at: [number, number], bearing: number, reach: number) =>
      destination(at, bearing, reach / DEGREES);
    let covered = 0;
    for (let i = 0; i < 300; i++) {
      const center: [number, number] = [
        between(-180, 180),
        i % 10 === 0 ? between(89, 89.99) : between(-85, 85),
      ];
      const size = [1e-4, 0.01, 1, 20, 60][i % 5]!;
      // A star-shaped ring around the centre (round one near the pole), and a hole of a quarter its size.
      const star = (scale: number) => {
        const corners = 5 + Math.floor(next() * 6);
        return Array.from({ length: corners }, (_, k) => ({
          bearing: (2 * Math.PI * k) / corners,
          reach: scale * between(0.5, 1),
        }));
      };
      const [shell, hole] = [star(size), star(size / 4)];
      const ring = (points: { bearing: number; reach: number }[]) => {
        const positions = points.map(({ bearing, reach }) => away(center, bearing, reach));
        return [...positions, positions[0]!];
      };
      const [polygon] = polygonsOf({ type: 'Polygon', coordinates: [ring(shell), ring(hole)] });
      const points: [number, number][] = [
        ...shell.map(({ bearing, reach }) => away(center, bearing, reach)), // on a vertex
        // Just beyond a vertex, within and past the boundary's touch tolerance (1e-9 rad).
        ...shell.map(({ bearing, reach }) => away(center, bearing, reach + between(0.5e-9, 3e-9) * DEGREES)),
        ...Array.from({ length: 30 }, () => away(center, between(0, 2 * Math.PI), size * between(0, 3))),
      ];
      for (const at of points) {
        const p = toUnitVector(at);
        const expected = polygonBoundaryTouches(polygon!, p) || polygonInteriorContains(polygon!, p);
        expect(polygonCovers(polygon!, p)).toBe(expected);
        if (expected) covered++;
      }
    }
    expect(covered).toBeGreaterThan(3000);
  });
});
