import { formatValue } from './bson-text.ts';
import { parseStoredGeometry } from './geojson.ts';
import { InvalidGeometry } from './invalid-geometry.ts';

/**
 * Why a 2dsphere index would refuse this value (a GeoJSON geometry or a legacy `[lng, lat]` pair), in
 * MongoDB's words, or undefined when it accepts it. MongoDB fails the write of a document holding such a
 * value with "Can't extract geo keys" (Location16755) followed by this reason.
 *
 * `fieldName` is the field the value sits in, which MongoDB names when the value is neither an array nor
 * an object. Absent values (null, or an empty array or document) are the caller's to skip: MongoDB
 * indexes nothing for them.
 */
export function geometryDefect(value: unknown, fieldName?: string): string | undefined {
  try {
    const geometry = parseStoredGeometry(value, fieldName);
    if (geometry.strictWinding) return "can't index geometry with strict winding order";
    if (geometry.shape === undefined)
      return `can't project geometry into spherical CRS: ${formatValue(value)}`;
    return undefined;
  } catch (error) {
    if (error instanceof InvalidGeometry) return error.message;
    throw error;
  }
}
