import { describe, expect, it } from 'vitest';
import {
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
