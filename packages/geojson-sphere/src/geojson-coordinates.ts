import { formatStreamDouble, isDocumentOrArray, numericValue, typeName } from './bson-text.ts';
import { isValidLngLat, type LngLat } from './earth.ts';
import { InvalidGeometry } from './invalid-geometry.ts';
import { toUnitVector, type UnitVector } from './unit-vectors.ts';

const fieldValues = (value: Record<string, unknown> | unknown[]): unknown[] =>
  Array.isArray(value) ? value : Object.values(value);

/**
 * A point written as two numbers, `[x, y]` or `{ any: x, name: y }` (MongoDB's parseFlatPoint). Stored
 * legacy points and GeoJSON positions may carry more elements (e.g. altitude); query points may not.
 */
export function parseFlatPoint(value: unknown, allowExtraElements: boolean): LngLat {
  if (!isDocumentOrArray(value)) {
    throw new InvalidGeometry(`Point must be an array or object, instead got type ${typeName(value)}`);
  }
  const elements = fieldValues(value);
  const coordinates = elements.slice(0, 2).map((element) => numericValue(element));
  for (let i = 0; i < 2; i++) {
    if (coordinates[i] === undefined) {
      throw new InvalidGeometry(
        `Point must only contain numeric elements, instead got type ${typeName(elements[i])}`,
      );
    }
  }
  if (!allowExtraElements && elements.length > 2) {
    throw new InvalidGeometry('Point must only contain two numeric elements');
  }
  const [x, y] = coordinates as [number, number];
  if (!Number.isFinite(x) || !Number.isFinite(y)) {
    throw new InvalidGeometry('Point coordinates must be finite numbers');
  }
  return [x, y];
}

/** Legacy form: an array, or an embedded document whose first field is a number. */
export const isLegacyPointForm = (value: unknown): boolean =>
  Array.isArray(value) || (isDocumentOrArray(value) && numericValue(Object.values(value)[0]) !== undefined);

/** Projects [lng, lat] onto the sphere, refusing coordinates outside MongoDB's range. */
export function toSpherePoint(lngLat: LngLat): UnitVector {
  if (!isValidLngLat(lngLat)) {
    const [lng, lat] = lngLat;
    throw new InvalidGeometry(
      `Longitude/latitude is out of bounds, lng: ${formatStreamDouble(lng)} lat: ${formatStreamDouble(lat)}`,
    );
  }
  return toUnitVector(lngLat);
}

/** One GeoJSON position: an array of at least two numbers within range. */
export function parsePosition(value: unknown): UnitVector {
  if (!Array.isArray(value)) {
    throw new InvalidGeometry(`GeoJSON coordinates must be an array, instead got type ${typeName(value)}`);
  }
  return toSpherePoint(parseFlatPoint(value, true));
}

/** An array of GeoJSON positions, as LineString, MultiPoint and polygon rings hold. */
export function parsePositions(value: unknown): UnitVector[] {
  if (!Array.isArray(value)) {
    throw new InvalidGeometry(
      `GeoJSON coordinates must be an array of coordinates, instead got type ${typeName(value)}`,
    );
  }
  return value.map(parsePosition);
}
