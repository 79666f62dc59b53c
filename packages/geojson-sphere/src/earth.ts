import { angleBetween, toUnitVector } from './unit-vectors.ts';

/**
 * MongoDB converts between radians and metres with this radius (kRadiusOfEarthInMeters = 6378.1 km,
 * the figure its $centerSphere and $geoNear pages use), not the 6371 km mean radius.
 */
export const EARTH_RADIUS_METERS = 6_378_100;

export type LngLat = readonly [lng: number, lat: number];

export const radiansToMeters = (radians: number): number => radians * EARTH_RADIUS_METERS;

/** Great-circle distance in metres between two [longitude, latitude] positions given in degrees. */
export function distanceMeters(a: LngLat, b: LngLat): number {
  return radiansToMeters(angleBetween(toUnitVector(a), toUnitVector(b)));
}

/** The range MongoDB accepts for spherical coordinates (isValidLngLat). */
export const isValidLngLat = ([lng, lat]: LngLat): boolean =>
  lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90;
