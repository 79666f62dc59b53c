import {
  EARTH_RADIUS_METERS,
  InvalidGeometry,
  isDocumentOrArray,
  isLegacyPointForm,
  isPlainObject,
  isValidLngLat,
  parseCircle,
  parseGeoJson,
} from 'geojson-sphere';
import { capRegion, shapeRegion, WORLD, type Region } from './cells.ts';
import { parseQueryPoint } from './query-point.ts';

/**
 * The region a field's query condition can match geometries in, for a 2dsphere index to narrow by:
 * `$geoWithin` a `$centerSphere` or a `$geometry`, `$geoIntersects` a `$geometry`. Null for any other
 * condition (flat shapes, other operators, or several of them), which the index leaves to a scan; a
 * malformed one is left to the query's own parse, which reports it.
 */
export function conditionRegion(condition: unknown): Region | null {
  if (!isPlainObject(condition)) return null;
  const operators = Object.keys(condition);
  if (operators.length !== 1) return null;
  const [operator] = operators;
  const argument = condition[operator!];
  if ((operator !== '$geoWithin' && operator !== '$geoIntersects') || !isPlainObject(argument)) return null;
  const specifiers = Object.keys(argument).filter((name) => name !== '$uniqueDocs');
  if (specifiers.length !== 1) return null;
  const [specifier] = specifiers;
  const value = argument[specifier!];
  try {
    if (specifier === '$centerSphere' && operator === '$geoWithin' && isDocumentOrArray(value)) {
      const { center, radius } = parseCircle(value);
      return isValidLngLat(center) ? capRegion(center, radius) : null;
    }
    if (specifier === '$geometry' && isDocumentOrArray(value)) {
      if (isLegacyPointForm(value)) {
        const { lngLat } = parseQueryPoint(value);
        return isValidLngLat(lngLat) ? capRegion(lngLat, 0) : null;
      }
      const geometry = parseGeoJson(value as Record<string, unknown>);
      return geometry.strictWinding ? WORLD : shapeRegion(geometry.shape);
    }
  } catch (error) {
    if (error instanceof InvalidGeometry) return null;
    throw error;
  }
  return null;
}

/** The region of a near query's candidates: within its maximum distance (metres), else anywhere. */
export const nearRegion = (center: readonly [number, number], maxMeters: number | undefined): Region =>
  maxMeters === undefined ? WORLD : capRegion(center, maxMeters / EARTH_RADIUS_METERS);
