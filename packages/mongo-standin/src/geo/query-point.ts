import {
  InvalidGeometry,
  isDocumentOrArray,
  isLegacyPointForm,
  parseFlatPoint,
  parseGeoJson,
  typeName,
  type LngLat,
} from 'geojson-sphere';

/** A point given in a query: GeoJSON (spherical, distances in metres) or a legacy pair (flat). */
export interface QueryPoint {
  readonly lngLat: LngLat;
  readonly isGeoJson: boolean;
}

/**
 * MongoDB's parseQueryPoint: a legacy pair of exactly two numbers, or a GeoJSON Point, whose `type` may
 * be left out but must say Point when present.
 */
export function parseQueryPoint(value: unknown): QueryPoint {
  if (!isDocumentOrArray(value)) {
    throw new InvalidGeometry(`Point must be an array or object, instead got type ${typeName(value)}`);
  }
  if (isLegacyPointForm(value)) return { lngLat: parseFlatPoint(value, false), isGeoJson: false };
  const obj = value as Record<string, unknown>;
  if (obj.type !== undefined && obj.type !== 'Point') {
    throw new InvalidGeometry(`Expected geojson geometry with type Point, but got type ${String(obj.type)}`);
  }
  const { flatPoint } = parseGeoJson({ ...obj, type: 'Point' });
  return { lngLat: flatPoint!, isGeoJson: true };
}
