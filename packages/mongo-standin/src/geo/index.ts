/**
 * Geospatial support for the MongoDB stand-in: $geoWithin / $geoIntersects as mingo query operators,
 * $near / $nearSphere planning for find, the $geoNear stage, and 2dsphere index key validation. The
 * geometry itself (GeoJSON parsing and validation, shapes on MongoDB's 6378.1 km sphere) is the
 * geojson-sphere package's.
 */
export { validateGeoKeys } from './geo-index-keys.ts';
export { runGeoNearStage, type GeoNearContext, type GeoNearSource } from './geo-near-stage.ts';
export { nearRegion } from './query-regions.ts';
export {
  assertNearIndex,
  assertNoNearOperator,
  orderByNearness,
  planNearQuery,
  type NearQuery,
} from './near-query.ts';
export { geoQueryOperators } from './query-operators.ts';
