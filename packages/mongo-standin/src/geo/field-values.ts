import { isPlainObject, tryParseStoredGeometry, type StoredGeometry } from 'geojson-sphere';

const ARRAY_INDEX = /^\d+$/;

/**
 * The values at a dotted path, the way MongoDB collects geo fields: arrays met before the last path
 * component are traversed (each element a document to continue in, or indexed by a numeric component),
 * while an array found at the end of the path is returned whole, since `[lng, lat]` is itself a point.
 */
export function valuesAtPath(value: unknown, path: string): unknown[] {
  const collect = (current: unknown, segments: readonly string[]): unknown[] => {
    const [head, ...rest] = segments;
    if (head === undefined) return current === undefined ? [] : [current];
    if (Array.isArray(current)) {
      if (ARRAY_INDEX.test(head)) return collect(current[Number(head)], rest);
      return current.flatMap((element) => (isPlainObject(element) ? collect(element, segments) : []));
    }
    return isPlainObject(current) ? collect(current[head], rest) : [];
  };
  return collect(value, path.split('.'));
}

/**
 * The geometries a query predicate tests for one value: each element of an array, then the array itself
 * (MongoDB's leaf-array traversal), keeping those that parse as geometries.
 */
export const queryCandidates = (value: unknown): StoredGeometry[] =>
  (Array.isArray(value) ? [...value, value] : [value]).flatMap((candidate) => {
    const geometry = tryParseStoredGeometry(candidate);
    return geometry === undefined ? [] : [geometry];
  });

/** One geometry a document offers for a distance: the value it was parsed from is what includeLocs returns. */
export interface LocatedGeometry {
  readonly location: unknown;
  readonly geometry: StoredGeometry;
}

/**
 * The geometries $near and $geoNear measure for one value: the value itself when it is a geometry,
 * otherwise each geometry element of an array of them.
 */
export function nearCandidates(value: unknown): LocatedGeometry[] {
  const whole = tryParseStoredGeometry(value);
  if (whole !== undefined) return [{ location: value, geometry: whole }];
  if (!Array.isArray(value)) return [];
  return value.flatMap((location) => {
    const geometry = tryParseStoredGeometry(location);
    return geometry === undefined ? [] : [{ location, geometry }];
  });
}
