import { ringBoundaryTouches, ringContains, ringFarFrom, type SphericalRing } from './spherical-rings.ts';
import type { UnitVector } from './unit-vectors.ts';

/** A polygon on the sphere: one shell and its holes (interior rings). */
export interface SphericalPolygon {
  readonly shell: SphericalRing;
  readonly holes: readonly SphericalRing[];
}

/** One simple component of a geometry; Multi* types and GeometryCollections are several parts. */
export type ShapePart =
  | { readonly kind: 'point'; readonly point: UnitVector }
  | { readonly kind: 'line'; readonly vertices: readonly UnitVector[] }
  | { readonly kind: 'polygon'; readonly polygon: SphericalPolygon };

/** A parsed geometry projected onto the sphere. */
export type Shape = readonly ShapePart[];

export const polygonRings = (polygon: SphericalPolygon): readonly SphericalRing[] => [
  polygon.shell,
  ...polygon.holes,
];

export const polygonBoundaryTouches = (polygon: SphericalPolygon, p: UnitVector): boolean =>
  polygonRings(polygon).some((ring) => ringBoundaryTouches(ring, p));

/** Inside the shell and outside every hole, its boundary aside (ambiguous there: see ringContains). */
const insideRings = (polygon: SphericalPolygon, p: UnitVector): boolean =>
  ringContains(polygon.shell, p) && !polygon.holes.some((hole) => ringContains(hole, p));

/** Strictly inside: inside the shell, outside every hole, and not on any boundary. */
export const polygonInteriorContains = (polygon: SphericalPolygon, p: UnitVector): boolean =>
  !polygonBoundaryTouches(polygon, p) && insideRings(polygon, p);

/**
 * Inside or on the boundary, which is how MongoDB treats points for both $geoWithin and $geoIntersects.
 * A point clear of the shell's cap is neither (most points tested against a small service area).
 */
export const polygonCovers = (polygon: SphericalPolygon, p: UnitVector): boolean =>
  !ringFarFrom(polygon.shell, p) && (polygonBoundaryTouches(polygon, p) || insideRings(polygon, p));
