import { isPlainObject, tryParseStoredGeometry, type StoredGeometry } from 'geojson-sphere';

const ARRAY_INDEX = /^\d+$/;

/** Geometries parsed from frozen values (documents kept between reads), which cannot change. */
const parsedFrozen = new WeakMap<object, StoredGeometry | null>();

/** `tryParseStoredGeometry`, parsing a frozen value once. */
function storedGeometry(value: unknown): StoredGeometry | undefined {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value))
    return tryParseStoredGeometry(value);
  let geometry = parsedFrozen.get(value);
  if (geometry === undefined) parsedFrozen.set(value, (geometry = tryParseStoredGeometry(value) ?? null));
  return geometry ?? undefined;
}

/** Paths split once: a query asks the same few of every document it tests. */
const segmentsOf = new Map<string, readonly string[]>();
const MAX_PATHS_KEPT = 1_000;

function segments(path: string): readonly string[] {
  let split = segmentsOf.get(path);
  if (split === undefined) {
    split = path.split('.');
    if (segmentsOf.size < MAX_PATHS_KEPT) segmentsOf.set(path, split);
  }
  return split;
}

/**
 * The values at a dotted path, the way MongoDB collects geo fields: arrays met before the last path
 * component are traversed (each element a document to continue in, or indexed by a numeric component),
 * while an array found at the end of the path is returned whole, since `[lng, lat]` is itself a point.
 */
export function valuesAtPath(value: unknown, path: string): unknown[] {
  const found: unknown[] = [];
  collect(value, segments(path), 0, found);
  return found;
}

function collect(current: unknown, path: readonly string[], at: number, found: unknown[]): void {
  if (at === path.length) {
    if (current !== undefined) found.push(current);
    return;
  }
  const head = path[at]!;
  if (Array.isArray(current)) {
    if (ARRAY_INDEX.test(head)) collect(current[Number(head)], path, at + 1, found);
    else for (const element of current) if (isPlainObject(element)) collect(element, path, at, found);
  } else if (isPlainObject(current)) collect(current[head], path, at + 1, found);
}

/**
 * The geometries a query predicate tests for one value: each element of an array, then the array itself
 * (MongoDB's leaf-array traversal), keeping those that parse as geometries.
 */
export const queryCandidates = (value: unknown): StoredGeometry[] =>
  (Array.isArray(value) ? [...value, value] : [value]).flatMap((candidate) => {
    const geometry = storedGeometry(candidate);
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
  const whole = storedGeometry(value);
  if (whole !== undefined) return [{ location: value, geometry: whole }];
  if (!Array.isArray(value)) return [];
  return value.flatMap((location) => {
    const geometry = storedGeometry(location);
    return geometry === undefined ? [] : [{ location, geometry }];
  });
}
