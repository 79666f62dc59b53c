import type { Document } from 'bson';
import {
  formatField,
  formatValue,
  InvalidGeometry,
  isDocumentOrArray,
  isPlainObject,
  isValidLngLat,
  numericValue,
  radiansToMeters,
  toUnitVector,
} from 'geojson-sphere';
import { badValue, locationError } from '../errors.ts';
import { unableToPlanNear } from './geo-errors.ts';
import { nearestLocation } from './nearest-location.ts';
import { parseQueryPoint, type QueryPoint } from './query-point.ts';

const NEAR_OPERATORS = ['$near', '$nearSphere', '$geoNear'];

/**
 * A $near / $nearSphere clause planned for execution. Distances are in metres whatever the query's units
 * (a legacy $nearSphere's radians are converted with MongoDB's earth radius).
 */
export interface NearQuery {
  /** The field the clause is on; a 2dsphere index must cover it (see assertNearIndex). */
  readonly path: string;
  /** The rest of the filter, to run as an ordinary match. */
  readonly filter: Document;
  readonly center: [number, number];
  readonly minDistance?: number;
  readonly maxDistance?: number;
  /** Metres to the nearest geometry at `path`; null when the document has none MongoDB would index. */
  distanceOf(doc: Document): number | null;
}

/** A near clause as MongoDB's GeoNearExpression::parseFrom understands it. */
export interface NearCondition {
  readonly point: QueryPoint;
  /** $nearSphere with a legacy pair: distances are radians. Otherwise metres. */
  readonly unitsAreRadians: boolean;
  readonly minDistance?: number;
  readonly maxDistance?: number;
}

const isNearCondition = (value: unknown): value is Record<string, unknown> =>
  isPlainObject(value) && Object.keys(value).some((key) => NEAR_OPERATORS.includes(key));

const countNearOperators = (value: unknown): number => {
  if (Array.isArray(value))
    return value.reduce((sum: number, element) => sum + countNearOperators(element), 0);
  if (!isPlainObject(value)) return 0;
  return Object.entries(value).reduce(
    (sum, [key, field]) => sum + (NEAR_OPERATORS.includes(key) ? 1 : 0) + countNearOperators(field),
    0,
  );
};

/**
 * MongoDB's unnamed uasserts in the legacy form reuse the checks of the new form with their own codes;
 * `codes` is undefined for the new form, which reports BadValue.
 */
function distanceOption(name: string, value: unknown, codes?: readonly [number, number]): number {
  const distance = numericValue(value);
  const fail = (message: string, code: number | undefined) =>
    code === undefined ? badValue(message) : locationError(code, message);
  if (distance === undefined) throw fail(`${name} must be a number`, codes?.[0]);
  if (!(distance >= 0) || (codes === undefined && !Number.isFinite(distance))) {
    throw fail(`${name} must be non-negative`, codes?.[1]);
  }
  return distance;
}

const tryQueryPoint = (value: unknown): QueryPoint | undefined => {
  try {
    return parseQueryPoint(value);
  } catch (error) {
    if (error instanceof InvalidGeometry) return undefined;
    throw error;
  }
};

/** `[x, y, maxDistance]`: the legacy form carrying its own maximum distance. */
const isPointWithMaxDistance = (value: unknown): boolean =>
  isDocumentOrArray(value) &&
  Object.values(value).length === 3 &&
  Object.values(value).every((element) => numericValue(element) !== undefined);

type ParsedNear = { point: QueryPoint; isNearSphere: boolean; minDistance?: number; maxDistance?: number };

/** `{ $nearSphere: [lng, lat], $maxDistance: r }` and friends; undefined when no point was recognised. */
function parseLegacyNear(condition: Record<string, unknown>): ParsedNear | undefined {
  let parsed: Partial<ParsedNear> = {};
  for (const [key, value] of Object.entries(condition)) {
    if (NEAR_OPERATORS.includes(key)) {
      if (!isDocumentOrArray(value)) return undefined;
      const isNearSphere = key === '$nearSphere';
      const point = tryQueryPoint(value);
      if (point !== undefined) parsed = { ...parsed, point, isNearSphere };
      else if (isPointWithMaxDistance(value)) {
        const [x, y, maxDistance] = Object.values(value).map((element) => numericValue(element)!);
        if (!(maxDistance! >= 0)) throw locationError(18522, 'max distance must be non-negative');
        parsed = { ...parsed, point: { lngLat: [x!, y!], isGeoJson: false }, isNearSphere, maxDistance };
      }
    } else if (key === '$minDistance') {
      parsed.minDistance = distanceOption('$minDistance', value, [16893, 16894]);
    } else if (key === '$maxDistance') {
      parsed.maxDistance = distanceOption('$maxDistance', value, [16895, 16896]);
    } else if (key !== '$uniqueDocs') {
      throw locationError(34413, `invalid argument in geo near query: ${key}`);
    }
  }
  return parsed.point === undefined ? undefined : (parsed as ParsedNear);
}

/** `{ $near: { $geometry: <GeoJSON Point>, $minDistance, $maxDistance } }`. */
function parseGeoJsonNear(condition: Record<string, unknown>): ParsedNear {
  const [first, second] = Object.entries(condition);
  if (first === undefined) throw badValue('empty geo near query object');
  if (second !== undefined) {
    throw badValue(
      'geo near accepts just one argument when querying for a GeoJSON point. ' +
        `Extra field found: ${formatField(...second)}`,
    );
  }
  const [operator, argument] = first;
  if (!isDocumentOrArray(argument)) throw badValue('geo near query argument is not an object');
  if (!NEAR_OPERATORS.includes(operator)) throw badValue(`invalid geo near query operator: ${operator}`);
  let parsed: Partial<ParsedNear> = { isNearSphere: false };
  for (const [key, value] of Object.entries(argument)) {
    if (key === '$geometry') {
      if (!isDocumentOrArray(value)) continue;
      let point: QueryPoint;
      try {
        point = parseQueryPoint(value);
      } catch (error) {
        if (!(error instanceof InvalidGeometry)) throw error;
        throw badValue(
          `invalid point in geo near query $geometry argument: ${formatValue(value)}  ${error.message}`,
        );
      }
      if (!point.isGeoJson) throw badValue(`$near requires geojson point, given ${formatValue(value)}`);
      parsed = { ...parsed, point };
    } else if (key === '$minDistance') {
      parsed.minDistance = distanceOption('$minDistance', value);
    } else if (key === '$maxDistance') {
      parsed.maxDistance = distanceOption('$maxDistance', value);
    } else {
      throw badValue(`invalid argument in geo near query: ${key}`);
    }
  }
  if (parsed.point === undefined) throw badValue('$geometry is required for geo near query');
  return parsed as ParsedNear;
}

/**
 * Parses one near clause (the object under the field name) like GeoNearExpression::parseFrom. Flat $near
 * needs a 2d index, which the stand-in does not provide, so it is refused the way MongoDB's planner refuses
 * it without one.
 */
export function parseNearCondition(condition: Record<string, unknown>): NearCondition {
  const { point, isNearSphere, minDistance, maxDistance } =
    parseLegacyNear(condition) ?? parseGeoJsonNear(condition);
  if (isNearSphere && !isValidLngLat(point.lngLat)) {
    throw badValue('Legacy point is out of bounds for spherical query');
  }
  if (!point.isGeoJson && !isNearSphere) throw unableToPlanNear();
  return { point, unitsAreRadians: !point.isGeoJson, minDistance, maxDistance };
}

/** The filter with its near clause removed, following the $and chain the clause may sit in. */
function withoutNearClause(filter: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filter)
      .filter(([, value]) => !isNearCondition(value))
      .map(([key, value]) =>
        key === '$and' && Array.isArray(value)
          ? [key, value.map((clause) => (isPlainObject(clause) ? withoutNearClause(clause) : clause))]
          : [key, value],
      ),
  );
}

/** The near clause reachable from the root through fields and $and only: where MongoDB allows it. */
function findTopLevelNear(filter: Record<string, unknown>): [string, Record<string, unknown>] | undefined {
  for (const [key, value] of Object.entries(filter)) {
    if (isNearCondition(value)) return [key, value];
    if (key === '$and' && Array.isArray(value)) {
      const found = value
        .filter(isPlainObject)
        .map(findTopLevelNear)
        .find((clause) => clause !== undefined);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const toMeters = (distance: number | undefined, unitsAreRadians: boolean) =>
  distance === undefined || !unitsAreRadians ? distance : radiansToMeters(distance);

/**
 * Finds the $near / $nearSphere clause of a find filter. Returns null when there is none, and throws
 * MongoDB's errors for two clauses, a clause under $or/$nor/$not/$elemMatch, or a malformed clause.
 */
export function planNearQuery(filter: Document): NearQuery | null {
  const occurrences = countNearOperators(filter);
  if (occurrences === 0) return null;
  if (occurrences > 1) throw badValue('Too many geoNear expressions');
  const clause = findTopLevelNear(filter);
  if (clause === undefined) throw badValue('geoNear must be top-level expr');
  const [path, condition] = clause;
  const { point, unitsAreRadians, minDistance, maxDistance } = parseNearCondition(condition);
  const center = toUnitVector(point.lngLat);
  return {
    path,
    filter: withoutNearClause(filter),
    center: [...point.lngLat],
    minDistance: toMeters(minDistance, unitsAreRadians),
    maxDistance: toMeters(maxDistance, unitsAreRadians),
    distanceOf: (doc) => {
      const nearest = nearestLocation(doc, path, center);
      return nearest === undefined ? null : radiansToMeters(nearest.radians);
    },
  };
}

/** Whether a distance falls within a near query's inclusive [minDistance, maxDistance] range. */
export const isWithinNearRange = (
  distance: number,
  { minDistance, maxDistance }: { minDistance?: number; maxDistance?: number },
): boolean =>
  (minDistance === undefined || distance >= minDistance) &&
  (maxDistance === undefined || distance <= maxDistance);

/**
 * Runs a planned near query over documents that already passed `near.filter`: drops documents without a
 * geometry or outside the distance range, and orders the rest nearest first (ties keep input order).
 */
export function orderByNearness(near: NearQuery, docs: Iterable<Document>): Document[] {
  return [...docs]
    .map((doc) => ({ doc, distance: near.distanceOf(doc) }))
    .filter((entry): entry is { doc: Document; distance: number } => entry.distance !== null)
    .filter(({ distance }) => isWithinNearRange(distance, near))
    .sort((a, b) => a.distance - b.distance)
    .map(({ doc }) => doc);
}

/**
 * For count, aggregate $match and $geoNear's `query`, where MongoDB rejects near operators (they need to
 * sort). `context` names the caller for readers of the call site; MongoDB's message does not include it.
 */
export function assertNoNearOperator(filter: Document, _context: string): void {
  if (countNearOperators(filter) > 0) {
    throw locationError(
      5626500,
      '$geoNear, $near, and $nearSphere are not allowed in this context, as these operators require sorting ' +
        'geospatial data. If you do not need sort, consider using $geoWithin instead. Check out ' +
        'https://dochub.mongodb.org/core/near-sort-operation and ' +
        'https://dochub.mongodb.org/core/nearSphere-sort-operationfor more details.',
    );
  }
}

/** The 2dsphere index check a find with $near needs: MongoDB's planner fails without one on the path. */
export function assertNearIndex(near: NearQuery, indexes: readonly { key: Document }[]): void {
  if (!indexes.some((index) => index.key[near.path] === '2dsphere')) throw unableToPlanNear();
}
