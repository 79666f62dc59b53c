import { angleBetween, toUnitVector } from './unit-vectors.ts';

/**
 * MongoDB converts between radians and metres with this radius (kRadiusOfEarthInMeters = 6378.1 km,
 * the figure its $centerSphere and $geoNear pages use), not the 6371 km mean radius.
 */
export const EARTH_RADIUS_METERS = 6_378_100;

const DEGREES = 180 / Math.PI;

export type LngLat = readonly [lng: number, lat: number];

export const radiansToMeters = (radians: number): number => radians * EARTH_RADIUS_METERS;

/** Great-circle distance in metres between two [longitude, latitude] positions given in degrees. */
export function distanceMeters(a: LngLat, b: LngLat): number {
  return radiansToMeters(angleBetween(toUnitVector(a), toUnitVector(b)));
}

/**
 * The position `radians` away from `[lng, lat]` (degrees) along `bearing` (radians clockwise from north),
 * its longitude wrapped into [-180, 180).
 */
export function destination([lng, lat]: LngLat, bearing: number, radians: number): [number, number] {
  const phi = lat / DEGREES;
  const phi2 = Math.asin(
    Math.sin(phi) * Math.cos(radians) + Math.cos(phi) * Math.sin(radians) * Math.cos(bearing),
  );
  const lambda2 =
    lng / DEGREES +
    Math.atan2(
      Math.sin(bearing) * Math.sin(radians) * Math.cos(phi),
      Math.cos(radians) - Math.sin(phi) * Math.sin(phi2),
    );
  return [((((lambda2 * DEGREES + 180) % 360) + 360) % 360) - 180, phi2 * DEGREES];
}

/** The range MongoDB accepts for spherical coordinates (isValidLngLat). */
export const isValidLngLat = ([lng, lat]: LngLat): boolean =>
  lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90;
