import {
  formatField,
  formatValue,
  isDocumentOrArray,
  isPlainObject,
  numericValue,
  typeName,
} from './bson-text.ts';
import { isValidLngLat, type LngLat } from './earth.ts';
import { InvalidGeometry } from './invalid-geometry.ts';
import { isLegacyPointForm, parseFlatPoint, parsePositions, toSpherePoint } from './geojson-coordinates.ts';
import { parsePolygonCoordinates, withoutConsecutiveDuplicates } from './geojson-polygons.ts';
import type { Shape, ShapePart } from './shapes.ts';
import { negate, sameVector } from './unit-vectors.ts';

const GEOJSON_TYPES = [
  'Point',
  'LineString',
  'Polygon',
  'MultiPoint',
  'MultiLineString',
  'MultiPolygon',
  'GeometryCollection',
] as const;
type GeoJsonType = (typeof GEOJSON_TYPES)[number];

const STRICT_WINDING_CRS = 'urn:x-mongodb:crs:strictwinding:EPSG:4326';
const SPHERE_CRS_NAMES = ['urn:ogc:def:crs:OGC:1.3:CRS84', 'EPSG:4326'];

/** A parsed GeoJSON object. */
export interface GeoJsonGeometry {
  readonly type: GeoJsonType;
  readonly shape: Shape;
  /** The [lng, lat] of a Point, which legacy flat shapes ($box, $center, $polygon) can also test. */
  readonly flatPoint?: LngLat;
  /** A "big polygon" (strict winding CRS): MongoDB neither indexes nor matches stored ones. */
  readonly strictWinding: boolean;
}

const geoJsonTypeOf = (obj: Record<string, unknown>): GeoJsonType | undefined =>
  GEOJSON_TYPES.find((type) => type === obj.type);

/** Validates `crs` like parseGeoJSONCRS; returns whether it asks for strict winding order. */
function parseCrs(obj: Record<string, unknown>, allowStrictWinding: boolean): boolean {
  const crs = obj.crs;
  if (crs === undefined) return false;
  if (!isDocumentOrArray(crs)) {
    throw new InvalidGeometry(`GeoJSON CRS must be an object, instead got type ${typeName(crs)}`);
  }
  const { type, properties } = crs as Record<string, unknown>;
  if (type !== 'name') throw new InvalidGeometry('GeoJSON CRS must have field "type": "name"');
  if (!isDocumentOrArray(properties)) {
    throw new InvalidGeometry(
      `CRS must have field "properties" which is an object, instead got type ${typeName(properties)}`,
    );
  }
  const name = (properties as Record<string, unknown>).name;
  if (typeof name !== 'string') {
    throw new InvalidGeometry(
      `In CRS, "properties.name" must be a string, instead got type ${typeName(name)}`,
    );
  }
  if (SPHERE_CRS_NAMES.includes(name)) return false;
  if (name !== STRICT_WINDING_CRS) throw new InvalidGeometry(`Unknown CRS name: ${name}`);
  if (!allowStrictWinding) throw new InvalidGeometry('Strict winding order CRS is only supported by polygon');
  return true;
}

function parseLine(coordinates: unknown): ShapePart {
  const vertices = withoutConsecutiveDuplicates(parsePositions(coordinates));
  if (vertices.length < 2) {
    throw new InvalidGeometry(
      `GeoJSON LineString must have at least 2 vertices, instead got ${vertices.length} vertices: ${formatValue(coordinates)}`,
    );
  }
  const antipodal = vertices.findIndex((vertex, i) => i > 0 && sameVector(vertex, negate(vertices[i - 1]!)));
  if (antipodal > 0) {
    throw new InvalidGeometry(
      `GeoJSON LineString is not valid: Vertices ${antipodal - 1} and ${antipodal} are antipodal ${formatValue(coordinates)}`,
    );
  }
  return { kind: 'line', vertices };
}

const parsePolygon = (coordinates: unknown): ShapePart => ({
  kind: 'polygon',
  polygon: parsePolygonCoordinates(coordinates),
});

/** The array of members a Multi* geometry lists, each parsed with `parseMember`. */
function parseMembers(type: GeoJsonType, coordinates: unknown, parseMember: (member: unknown) => ShapePart) {
  if (!Array.isArray(coordinates)) {
    throw new InvalidGeometry(
      `${type} coordinates must be an array, instead got type ${typeName(coordinates)}`,
    );
  }
  if (coordinates.length === 0) throw new InvalidGeometry(`${type} coordinates must have at least 1 element`);
  return coordinates.map(parseMember);
}

function parseGeometryCollection(geometries: unknown): Shape {
  if (!Array.isArray(geometries)) {
    throw new InvalidGeometry(
      `GeometryCollection geometries must be an array, instead got type ${typeName(geometries)}`,
    );
  }
  if (geometries.length === 0) {
    throw new InvalidGeometry('GeometryCollection geometries must have at least 1 element');
  }
  return geometries.flatMap((member: unknown, i) => {
    if (!isPlainObject(member)) {
      throw new InvalidGeometry(
        `Element ${i} of "geometries" must be an object, instead got type ${typeName(member)}: ${formatValue(member)}`,
      );
    }
    const type = geoJsonTypeOf(member);
    if (type === undefined) throw new InvalidGeometry(`Unknown GeoJSON type: ${formatValue(member)}`);
    if (type === 'GeometryCollection') {
      throw new InvalidGeometry(`GeometryCollections cannot be nested: ${formatValue(member)}`);
    }
    return parseGeoJson(member).shape;
  });
}

/** A GeoJSON geometry object, validated with MongoDB's GeoParser rules and messages. */
export function parseGeoJson(obj: Record<string, unknown>): GeoJsonGeometry {
  const type = geoJsonTypeOf(obj);
  if (type === undefined) throw new InvalidGeometry(`unknown GeoJSON type: ${formatValue(obj)}`);
  const strictWinding = parseCrs(obj, type === 'Polygon');
  const { coordinates } = obj;
  switch (type) {
    case 'Point': {
      const flatPoint = parseFlatPoint(coordinates, true);
      return { type, shape: [{ kind: 'point', point: toSpherePoint(flatPoint) }], flatPoint, strictWinding };
    }
    case 'LineString':
      return { type, shape: [parseLine(coordinates)], strictWinding };
    case 'Polygon':
      return { type, shape: [parsePolygon(coordinates)], strictWinding };
    case 'MultiPoint': {
      const points = parsePositions(coordinates);
      if (points.length === 0)
        throw new InvalidGeometry('MultiPoint coordinates must have at least 1 element');
      return { type, shape: points.map((point) => ({ kind: 'point', point })), strictWinding };
    }
    case 'MultiLineString':
      return { type, shape: parseMembers(type, coordinates, parseLine), strictWinding };
    case 'MultiPolygon':
      return { type, shape: parseMembers(type, coordinates, parsePolygon), strictWinding };
    case 'GeometryCollection':
      return { type, shape: parseGeometryCollection(obj.geometries), strictWinding };
  }
}

/** A geometry as stored in a document: a legacy coordinate pair or a GeoJSON object. */
export interface StoredGeometry {
  /** Flat coordinates of a point (legacy or GeoJSON Point): what $box, $center and $polygon test. */
  readonly flatPoint?: LngLat;
  /** The geometry on the sphere; absent for a legacy pair outside the longitude/latitude range. */
  readonly shape?: Shape;
  readonly strictWinding: boolean;
}

/**
 * MongoDB's GeometryContainer::parseFromStorage for a stored value. `fieldName`, the field it was found
 * in, is named in the error when the value is neither an array nor an object, as MongoDB does.
 */
export function parseStoredGeometry(value: unknown, fieldName?: string): StoredGeometry {
  if (!isDocumentOrArray(value)) {
    const element = fieldName === undefined ? formatValue(value) : formatField(fieldName, value);
    throw new InvalidGeometry(`geo element must be an array or object: ${element}`);
  }
  if (isLegacyPointForm(value)) {
    const flatPoint = parseFlatPoint(value, true);
    const shape: Shape | undefined = isValidLngLat(flatPoint)
      ? [{ kind: 'point', point: toSpherePoint(flatPoint) }]
      : undefined;
    return { flatPoint, shape, strictWinding: false };
  }
  return parseGeoJson(value as Record<string, unknown>);
}

/**
 * Whether a value cannot be a geometry at all: neither an array starting with a number (a legacy pair) nor
 * an object with a GeoJSON type or a number first. Telling it before parsing spares the error a parse
 * would throw: queries test every array and element at a path (an array of polygons, say), most of them no
 * geometry, and an error's stack costs more than the rest of such a test.
 */
const cannotBeGeometry = (value: unknown): boolean =>
  Array.isArray(value)
    ? numericValue(value[0]) === undefined
    : !isPlainObject(value) ||
      (geoJsonTypeOf(value) === undefined && numericValue(Object.values(value)[0]) === undefined);

/** Parses a stored value, or undefined when MongoDB would not read it as a geometry. */
export function tryParseStoredGeometry(value: unknown): StoredGeometry | undefined {
  if (cannotBeGeometry(value)) return undefined;
  try {
    return parseStoredGeometry(value);
  } catch (error) {
    if (error instanceof InvalidGeometry) return undefined;
    throw error;
  }
}
