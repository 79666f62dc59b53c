import { geometryDefect } from 'geojson-sphere';

export type GeoJsonGeometry = { type: string; coordinates: unknown };

/**
 * Why MongoDB's 2dsphere index would refuse this geometry, or undefined if it accepts it. The check is
 * geojson-sphere's model of MongoDB's own (ranges, closed rings, no self-crossing), the one the stand-in
 * applies too: data we cannot index is left out of geo search rather than failing the whole document on
 * write.
 */
export function geometryProblem(geometry: GeoJsonGeometry): string | undefined {
  return geometryDefect(geometry, 'geometry');
}

/** A GeoJSON Point for a latitude and longitude, or a reason they cannot be one. */
export function pointOf(
  latitude: unknown,
  longitude: unknown,
): { point: GeoJsonGeometry } | { problem: string } {
  if (typeof latitude !== 'number' || typeof longitude !== 'number') {
    return { problem: 'latitude and longitude must both be numbers' };
  }
  if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) {
    return { problem: `coordinates out of range (latitude ${latitude}, longitude ${longitude})` };
  }
  return { point: { type: 'Point', coordinates: [longitude, latitude] } };
}
