import { TOUCH_TOLERANCE_RADIANS, touchesArc } from './great-circle-arcs.ts';
import {
  angleBetween,
  dot,
  length,
  negate,
  orientation,
  type SphericalCap,
  type UnitVector,
} from './unit-vectors.ts';

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

/** Rings are made once and never changed: their caps are worked out once. */
const capsOf = new WeakMap<SphericalRing, SphericalCap | null>();

/** A cap under a hemisphere holding a ring's vertices and edges; or null. */
function ringCap(ring: SphericalRing): SphericalCap | null {
  let cap = capsOf.get(ring);
  if (cap !== undefined) return cap;
  const sum = ring.vertices.reduce<UnitVector>((s, v) => [s[0] + v[0], s[1] + v[1], s[2] + v[2]], [0, 0, 0]);
  const size = length(sum);
  cap = null;
  if (size > 1e-9) {
    const center: UnitVector = [sum[0] / size, sum[1] / size, sum[2] / size];
    let radius = 0;
    for (const vertex of ring.vertices) radius = Math.max(radius, angleBetween(center, vertex));
    if (radius < Math.PI / 2 - 1e-6) cap = { center, radius };
  }
  capsOf.set(ring, cap);
  return cap;
}

/**
 * Whether p lies clear of a ring and of its interior, told from a cap around the ring alone: a cap under a
 * hemisphere holds the ring's edges (arcs between its points stay in it) and the ring's smaller side, its
 * interior (the rest of the sphere, larger than a hemisphere and meeting no edge, lies on one side of the
 * ring: the larger). False when p may be near or inside, or no such cap holds the ring. Exact where the
 * rings' own tests are: for rings of a few centimetres they took points ~2e-9 rad beyond the rim as
 * inside, which this answers right.
 */
export function ringFarFrom(ring: SphericalRing, p: UnitVector): boolean {
  const cap = ringCap(ring);
  return cap !== null && angleBetween(cap.center, p) > cap.radius + 2 * TOUCH_TOLERANCE_RADIANS;
}

/** Whether p lies within TOUCH_TOLERANCE of one of the ring's edges. */
export const ringBoundaryTouches = (ring: SphericalRing, p: UnitVector): boolean =>
  [...ringEdges(ring.vertices)].some(([from, to]) => touchesArc(p, from, to));

/** The angle at p from a to b (radians, counter-clockwise seen from outside the sphere positive). */
const angleAt = (p: UnitVector, a: UnitVector, b: UnitVector): number =>
  Math.atan2(orientation(a, b, p), dot(a, b) - dot(p, a) * dot(p, b));

/**
 * Whether p is inside the ring (points on the boundary are ambiguous: callers check ringBoundaryTouches
 * first). Each way of telling which side of the ring p is on loses its precision somewhere, so p chooses:
 * - Far from the ring (more than 90° from every vertex): fanning from p's antipode, which is then close to
 *   every vertex, gives (left area − 4π) < 0 exactly when p is left of the ring.
 * - Otherwise the angles the edges subtend at p add up to +2π when the ring winds counter-clockwise around
 *   p (p is left of it), −2π clockwise (right), and 0 when p lies on its antipode's side; fanning from p
 *   itself then tells that side: (left area − 4π) < 0 exactly when p's antipode is left. Fanning from the
 *   antipode here would sum triangles with nearly opposite corners, and a small ring would take points
 *   kilometres away for inside.
 */
export function ringContains(ring: SphericalRing, p: UnitVector): boolean {
  let isLeft: boolean;
  if (!ring.vertices.some((vertex) => dot(vertex, p) > 0)) {
    isLeft = fanArea(negate(p), ring.vertices) < 0;
  } else {
    let winding = 0;
    for (const [from, to] of ringEdges(ring.vertices)) winding += angleAt(p, from, to);
    isLeft = Math.abs(winding) > Math.PI ? winding > 0 : fanArea(p, ring.vertices) < 0;
  }
  return isLeft === ring.interiorIsLeft;
}
