/**
 * Geospatial support for the MongoDB stand-in: $geoWithin / $geoIntersects as mingo query operators,
 * $near / $nearSphere planning for find, the $geoNear stage, and 2dsphere index key validation. Geometry
 * follows MongoDB's 2dsphere model: edges are great-circle arcs on a sphere of radius 6378.1 km.
 */
export { distanceMeters, EARTH_RADIUS_METERS } from './earth.ts';
export { validateGeoKeys } from './geo-index-keys.ts';
export { runGeoNearStage, type GeoNearContext } from './geo-near-stage.ts';
export {
  assertNearIndex,
  assertNoNearOperator,
  orderByNearness,
  planNearQuery,
  type NearQuery,
} from './near-query.ts';
export { geoQueryOperators } from './query-operators.ts';
