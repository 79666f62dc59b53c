import { distanceToShape, type UnitVector } from 'geojson-sphere';
import { nearCandidates, valuesAtPath } from './field-values.ts';

/** The closest geometry a document holds at a path, and its angular distance (radians) from a point. */
export interface NearestLocation {
  readonly radians: number;
  /** The stored value the distance was measured to (what $geoNear's includeLocs reports). */
  readonly location: unknown;
}

/** Undefined when the document has no geometry on the sphere at the path (MongoDB never indexed it). */
export function nearestLocation(doc: unknown, path: string, center: UnitVector): NearestLocation | undefined {
  let nearest: NearestLocation | undefined;
  for (const { location, geometry } of valuesAtPath(doc, path).flatMap(nearCandidates)) {
    if (geometry.shape === undefined || geometry.strictWinding) continue;
    const radians = distanceToShape(center, geometry.shape);
    if (nearest === undefined || radians < nearest.radians) nearest = { radians, location };
  }
  return nearest;
}
