import type { LngLat } from './earth.ts';

/** A point on the unit sphere in earth-centred cartesian coordinates: the form all spherical math uses. */
export type UnitVector = readonly [x: number, y: number, z: number];

/** A spherical cap ($centerSphere, a ring's bounds): every point within `radius` radians of `center`. */
export interface SphericalCap {
  readonly center: UnitVector;
  readonly radius: number;
}

const DEGREES = Math.PI / 180;

export function toUnitVector([lng, lat]: LngLat): UnitVector {
  const phi = lat * DEGREES;
  const lambda = lng * DEGREES;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

export const dot = (a: UnitVector, b: UnitVector): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

export const cross = (a: UnitVector, b: UnitVector): UnitVector => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

export const negate = (a: UnitVector): UnitVector => [-a[0], -a[1], -a[2]];

export const length = (a: UnitVector): number => Math.hypot(a[0], a[1], a[2]);

/** det[a b c]: positive when a → b → c turns counter-clockwise seen from outside the sphere. */
export const orientation = (a: UnitVector, b: UnitVector, c: UnitVector): number => dot(cross(a, b), c);

/** Angle in radians between two directions; atan2 keeps it accurate for tiny and near-antipodal angles. */
export const angleBetween = (a: UnitVector, b: UnitVector): number =>
  Math.atan2(length(cross(a, b)), dot(a, b));

export const sameVector = (a: UnitVector, b: UnitVector): boolean =>
  a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
