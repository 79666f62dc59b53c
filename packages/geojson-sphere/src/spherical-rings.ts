import { touchesArc } from './great-circle-arcs.ts';
import { dot, negate, orientation, type UnitVector } from './unit-vectors.ts';

/**
 * A closed loop of geodesic edges (the closing vertex is not repeated). Like MongoDB, which normalises
 * every loop to the side covering at most a hemisphere, the ring's interior is its smaller side, whatever
 * the winding order.
 */
export interface SphericalRing {
  readonly vertices: readonly UnitVector[];
  /** Whether the interior lies to the left of the vertex order (seen from outside the sphere). */
  readonly interiorIsLeft: boolean;
}

const FULL_SPHERE = 4 * Math.PI;

export function* ringEdges(vertices: readonly UnitVector[]): Generator<[UnitVector, UnitVector]> {
  for (let i = 0; i < vertices.length; i++) {
    yield [vertices[i]!, vertices[(i + 1) % vertices.length]!];
  }
}

/** Signed area (solid angle) of the geodesic triangle abc, by the Van Oosterom–Strackee formula. */
const signedTriangleArea = (a: UnitVector, b: UnitVector, c: UnitVector): number =>
  2 * Math.atan2(orientation(a, b, c), 1 + dot(a, b) + dot(b, c) + dot(c, a));

/**
 * Sum of the signed triangles fanned from apex over the ring's edges. It equals the area left of the ring,
 * minus 4π when the apex's antipode lies in that left region: each fan triangle avoids its apex's antipode.
 */
function fanArea(apex: UnitVector, vertices: readonly UnitVector[]): number {
  let sum = 0;
  for (const [from, to] of ringEdges(vertices)) sum += signedTriangleArea(apex, from, to);
  return sum;
}

export function makeRing(vertices: readonly UnitVector[]): SphericalRing {
  const leftArea = ((fanArea(vertices[0]!, vertices) % FULL_SPHERE) + FULL_SPHERE) % FULL_SPHERE;
  return { vertices, interiorIsLeft: leftArea <= FULL_SPHERE / 2 };
}

/** Whether p lies within TOUCH_TOLERANCE of one of the ring's edges. */
export const ringBoundaryTouches = (ring: SphericalRing, p: UnitVector): boolean =>
  [...ringEdges(ring.vertices)].some(([from, to]) => touchesArc(p, from, to));

/**
 * Whether p is inside the ring. Fanning from p's antipode gives (left area − 4π) < 0 exactly when p is left
 * of the ring, and the left area (> 0) otherwise. Points on the boundary are ambiguous: callers check
 * ringBoundaryTouches first.
 */
export function ringContains(ring: SphericalRing, p: UnitVector): boolean {
  const isLeft = fanArea(negate(p), ring.vertices) < 0;
  return isLeft === ring.interiorIsLeft;
}
