/**
 * GeoJSON on MongoDB's sphere: parsing and validation with MongoDB's GeoParser rules and messages, and
 * the shapes they describe on a sphere of radius 6378.1 km, where edges are great-circle arcs (MongoDB's
 * 2dsphere model). The package's one public entry point.
 */

// The earth and distances on it.
export {
  destination,
  distanceMeters,
  EARTH_RADIUS_METERS,
  isValidLngLat,
  radiansToMeters,
  type LngLat,
} from './earth.ts';
export {
  angleBetween,
  cross,
  dot,
  toUnitVector,
  type SphericalCap,
  type UnitVector,
} from './unit-vectors.ts';

// What a 2dsphere index accepts.
export { geometryDefect } from './geometry-defect.ts';
export { InvalidGeometry } from './invalid-geometry.ts';

// Parsing: GeoJSON objects, stored values (GeoJSON or legacy pairs), points and legacy flat shapes.
export {
  parseGeoJson,
  parseStoredGeometry,
  tryParseStoredGeometry,
  type GeoJsonGeometry,
  type StoredGeometry,
} from './geojson.ts';
export { isLegacyPointForm, parseFlatPoint, toSpherePoint } from './geojson-coordinates.ts';
export {
  parseBox,
  parseCircle,
  parseFlatCircle,
  parseFlatPolygon,
  type FlatPointTest,
} from './flat-shapes.ts';

// Shapes on the sphere and how they relate.
export type { Shape, ShapePart, SphericalPolygon } from './shapes.ts';
export {
  distanceToShape,
  shapesIntersect,
  shapeWithinCap,
  shapeWithinPolygons,
} from './spatial-predicates.ts';

// Values as MongoDB's server reads and prints them in its messages.
export {
  formatField,
  formatStreamDouble,
  formatValue,
  isDocumentOrArray,
  isPlainObject,
  numericValue,
  typeName,
} from './bson-text.ts';
