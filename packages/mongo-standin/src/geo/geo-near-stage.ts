import type { Document } from 'bson';
import { badValue, indexNotFound, locationError, typeMismatch } from '../errors.ts';
import {
  isDocumentOrArray,
  isPlainObject,
  numericValue,
  radiansToMeters,
  toUnitVector,
  typeName,
} from 'geojson-sphere';
import { unableToPlanNear } from './geo-errors.ts';
import type { Region } from './cells.ts';
import { nearRegion } from './query-regions.ts';
import { assertNoNearOperator, isWithinNearRange, parseNearCondition } from './near-query.ts';
import { nearestLocation } from './nearest-location.ts';

/**
 * The documents a $geoNear stage measures: those that may match its `query` and hold a geometry at
 * `path` within `region` (a superset: the stage tests each).
 */
export type GeoNearSource = (path: string, region: Region, query: Document | undefined) => Iterable<Document>;

export interface GeoNearContext {
  readonly indexes: readonly { key: Document; name: string }[];
  compileFilter(filter: Document): (doc: Document) => boolean;
  /** "db.collection", which MongoDB names when several geo indexes make `key` necessary. */
  readonly namespace?: string;
}

interface GeoNearOptions {
  near: unknown;
  distanceField: string;
  minDistance?: number;
  maxDistance?: number;
  distanceMultiplier: number;
  query?: Document;
  spherical: boolean;
  includeLocs?: string;
  key?: string;
}

const REMOVED_OPTIONS: [string, number, string][] = [
  [
    'collation',
    40227,
    "$geoNear does not accept the 'collation' parameter. Instead, specify a collation for the entire aggregation command.",
  ],
  ['limit', 50858, "$geoNear no longer supports the 'limit' parameter. Use a $limit stage instead."],
  ['num', 50857, "$geoNear no longer supports the 'num' parameter. Use a $limit stage instead."],
  ['start', 50856, "$geoNear no longer supports the 'start' argument."],
];

function nonNegativeNumber(name: string, value: unknown): number {
  const number = numericValue(value);
  if (number === undefined) throw typeMismatch(`${name} must be a number`);
  if (!(number >= 0)) throw badValue(`${name} must be nonnegative`);
  return number;
}

/** DocumentSourceGeoNear::parseOptions, with its codes and messages. */
function parseOptions(spec: Document): GeoNearOptions {
  for (const [name, code, message] of REMOVED_OPTIONS) {
    if (spec[name] !== undefined) throw locationError(code, message);
  }
  if (spec.near === undefined) throw locationError(5860400, "$geoNear requires a 'near' argument");
  const options: Partial<GeoNearOptions> = { distanceMultiplier: 1, spherical: false };
  for (const [name, value] of Object.entries(spec)) {
    switch (name) {
      case 'near':
        options.near = value;
        break;
      case 'distanceField':
        if (typeof value === 'string') options.distanceField = value;
        break;
      case 'maxDistance':
      case 'minDistance':
      case 'distanceMultiplier':
        options[name] = nonNegativeNumber(name, value);
        break;
      case 'query':
        if (!isPlainObject(value)) throw typeMismatch('query must be an object');
        options.query = value;
        break;
      case 'spherical':
        // BSON trueValue: only false, 0, null and undefined are false (an empty string is true).
        options.spherical = value !== false && value !== 0 && value !== null && value !== undefined;
        break;
      case 'includeLocs':
        if (typeof value !== 'string') {
          throw locationError(16607, "$geoNear requires that 'includeLocs' option is a String");
        }
        options.includeLocs = value;
        break;
      case 'key':
        if (typeof value !== 'string') {
          throw typeMismatch(
            `$geoNear parameter 'key' must be of type string but found type: ${typeName(value)}`,
          );
        }
        if (value === '') throw badValue("$geoNear parameter 'key' cannot be the empty string");
        options.key = value;
        break;
      case 'uniqueDocs':
        break; // deprecated and ignored, as MongoDB does
      default:
        throw badValue(`Unknown argument to $geoNear: ${name}`);
    }
  }
  if (options.distanceField === undefined) {
    throw locationError(16606, "$geoNear requires a 'distanceField' option as a String");
  }
  return options as GeoNearOptions;
}

const geoIndexFields = (indexes: GeoNearContext['indexes'], type: '2d' | '2dsphere'): string[] =>
  indexes.flatMap((index) => Object.keys(index.key).filter((field) => index.key[field] === type));

/** Which field to measure: `key`, or the collection's only geo index (MongoDB prefers a 2d index). */
function geoNearPath(key: string | undefined, { indexes, namespace = '' }: GeoNearContext): string {
  const twoD = geoIndexFields(indexes, '2d');
  const twoDSphere = geoIndexFields(indexes, '2dsphere');
  if (key !== undefined) {
    if (twoDSphere.includes(key)) return key;
    if (twoD.includes(key)) throw badValue('2d indexes are not supported by the MongoDB stand-in');
    throw unableToPlanNear();
  }
  if (twoD.length > 1) {
    throw indexNotFound(`There is more than one 2d index on ${namespace}; unsure which to use for $geoNear`);
  }
  if (twoD.length === 1) throw badValue('2d indexes are not supported by the MongoDB stand-in');
  if (twoDSphere.length === 0)
    throw indexNotFound('$geoNear requires a 2d or 2dsphere index, but none were found');
  if (twoDSphere.length > 1) {
    throw indexNotFound(
      `There is more than one 2dsphere index on ${namespace}; unsure which to use for $geoNear`,
    );
  }
  return twoDSphere[0]!;
}

/** The near clause MongoDB rewrites the stage into ($nearSphere when spherical), parsed the same way. */
function nearCondition({ near, spherical, minDistance, maxDistance }: GeoNearOptions) {
  if (typeof near === 'string' && near.startsWith('$')) {
    throw locationError(5860402, '$geoNear requires a constant near argument');
  }
  if (!isDocumentOrArray(near)) {
    throw locationError(
      5860401,
      '$geoNear requires near argument to be a GeoJSON object or a legacy point(array)',
    );
  }
  return parseNearCondition({
    [spherical ? '$nearSphere' : '$near']: near,
    ...(minDistance === undefined ? {} : { $minDistance: minDistance }),
    ...(maxDistance === undefined ? {} : { $maxDistance: maxDistance }),
  });
}

/** A shallow copy of doc with `value` at the dotted path, copying (not mutating) each object on the way. */
function withField(doc: Document, path: readonly string[], value: unknown): Document {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...doc, [head]: value };
  const child = isPlainObject(doc[head]) ? doc[head] : {};
  return { ...doc, [head]: withField(child, rest, value) };
}

/**
 * MongoDB's $geoNear stage over the documents of `source`: keeps those matching `query` that have a
 * geometry at the indexed path within the distance range, nearest first, each a copy carrying the distance
 * (metres for a GeoJSON `near`, radians for a legacy pair) times `distanceMultiplier`, and optionally the
 * location measured.
 */
export function runGeoNearStage(spec: Document, source: GeoNearSource, ctx: GeoNearContext): Document[] {
  const options = parseOptions(spec);
  const condition = nearCondition(options);
  const path = geoNearPath(options.key, ctx);
  if (options.query !== undefined) assertNoNearOperator(options.query, '$geoNear query');
  const matches = options.query === undefined ? () => true : ctx.compileFilter(options.query);
  const center = toUnitVector(condition.point.lngLat);
  const toQueryUnits = (radians: number) => (condition.unitsAreRadians ? radians : radiansToMeters(radians));
  const maxMeters =
    condition.maxDistance !== undefined && condition.unitsAreRadians
      ? radiansToMeters(condition.maxDistance)
      : condition.maxDistance;
  const docs = source(path, nearRegion(condition.point.lngLat, maxMeters), options.query);
  // Distances first: cheaper than most queries, and they leave few documents to test.
  return [...docs]
    .flatMap((doc) => {
      const nearest = nearestLocation(doc, path, center);
      return nearest === undefined ? [] : [{ doc, distance: toQueryUnits(nearest.radians), nearest }];
    })
    .filter(({ distance }) => isWithinNearRange(distance, condition))
    .filter(({ doc }) => matches(doc))
    .sort((a, b) => a.distance - b.distance)
    .map(({ doc, distance, nearest }) => {
      const withDistance = withField(
        doc,
        options.distanceField.split('.'),
        distance * options.distanceMultiplier,
      );
      return options.includeLocs === undefined
        ? withDistance
        : withField(withDistance, options.includeLocs.split('.'), nearest.location);
    });
}
