import { angleBetween, cross, dot, length, negate, orientation, type UnitVector } from './unit-vectors.ts';

/**
 * How close (radians, about 6 mm on the earth) a point must be to another point or an edge to count as
 * touching it. MongoDB answers these cases with S2 leaf cells (about 1 cm), so exact floating-point
 * equality would be stricter than the server.
 */
export const TOUCH_TOLERANCE_RADIANS = 1e-9;

/** Shortest angular distance from p to the minor great-circle arc from a to b. */
export function distanceToArc(p: UnitVector, a: UnitVector, b: UnitVector): number {
  const normal = cross(a, b);
  const normalLength = length(normal);
  const toEndpoints = Math.min(angleBetween(p, a), angleBetween(p, b));
  if (normalLength === 0) return toEndpoints;
  // p projects inside the arc when it lies between the planes through a and b perpendicular to the arc.
  const projectsInside = dot(cross(a, p), normal) >= 0 && dot(cross(p, b), normal) >= 0;
  if (!projectsInside) return toEndpoints;
  return Math.asin(Math.min(1, Math.abs(dot(p, normal)) / normalLength));
}

/** Largest angular distance from p to any point of the arc: the nearest point to p's antipode is the farthest. */
export const farthestDistanceOnArc = (p: UnitVector, a: UnitVector, b: UnitVector): number =>
  Math.PI - distanceToArc(negate(p), a, b);

export const touchesArc = (p: UnitVector, a: UnitVector, b: UnitVector): boolean =>
  distanceToArc(p, a, b) <= TOUCH_TOLERANCE_RADIANS;

/**
 * Whether arcs ab and cd cross at a point interior to both. That holds exactly when the quadrilateral
 * a → c → b → d turns the same way at every corner (so the two great circles meet on these arcs, not at
 * the antipodal intersection). Touching at endpoints is left to touchesArc.
 */
export function arcsCross(a: UnitVector, b: UnitVector, c: UnitVector, d: UnitVector): boolean {
  const turns = [orientation(a, c, b), orientation(c, b, d), orientation(b, d, a), orientation(d, a, c)];
  return turns.every((turn) => turn > 0) || turns.every((turn) => turn < 0);
}
