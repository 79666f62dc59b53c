import { formatValue, numericValue } from './bson-text.ts';
import type { LngLat } from './earth.ts';
import { InvalidGeometry } from './invalid-geometry.ts';
import { parseFlatPoint } from './geojson-coordinates.ts';

/**
 * The legacy 2d shapes $geoWithin accepts ($box, $center, $polygon). MongoDB evaluates them in the flat
 * longitude/latitude plane and only against stored points (legacy pairs or GeoJSON Points).
 */
export type FlatPointTest = (point: LngLat) => boolean;

const elementsOf = (value: Record<string, unknown> | unknown[]): unknown[] =>
  Array.isArray(value) ? value : Object.values(value);

/** `$box: [[minX, minY], [maxX, maxY]]`, bounds inclusive; taken as given, like MongoDB's Box::init. */
export function parseBox(argument: Record<string, unknown> | unknown[]): FlatPointTest {
  const [first, second] = elementsOf(argument);
  const [minX, minY] = parseFlatPoint(first, false);
  const [maxX, maxY] = parseFlatPoint(second, false);
  return ([x, y]) => x >= minX && x <= maxX && y >= minY && y <= maxY;
}

/** The `[center, radius]` pair of $center and $centerSphere. */
export function parseCircle(argument: Record<string, unknown> | unknown[]): {
  center: LngLat;
  radius: number;
} {
  const [centerValue, radiusValue, ...extra] = elementsOf(argument);
  const center = parseFlatPoint(centerValue, false);
  const radius = numericValue(radiusValue);
  if (radius === undefined || !(radius >= 0)) {
    throw new InvalidGeometry(`Radius must be a non-negative number: ${formatValue(radiusValue)}`);
  }
  if (extra.length > 0) {
    throw new InvalidGeometry('Only 2 fields allowed for circular region, but more were provided');
  }
  return { center, radius };
}

/** `$center: [[x, y], r]`: a planar disc, boundary included. */
export function parseFlatCircle(argument: Record<string, unknown> | unknown[]): FlatPointTest {
  const { center, radius } = parseCircle(argument);
  return ([x, y]) => Math.hypot(x - center[0], y - center[1]) <= radius;
}

/** `$polygon: [[x, y], ...]`: a planar polygon (implicitly closed), tested by ray casting. */
export function parseFlatPolygon(argument: Record<string, unknown> | unknown[]): FlatPointTest {
  const vertices = elementsOf(argument).map((vertex) => parseFlatPoint(vertex, false));
  if (vertices.length < 3) {
    throw new InvalidGeometry(`Polygon must have at least 3 points, instead got ${vertices.length} vertices`);
  }
  return ([x, y]) => {
    let inside = false;
    vertices.forEach(([xi, yi], i) => {
      const [xj, yj] = vertices[(i + 1) % vertices.length]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    });
    return inside;
  };
}
