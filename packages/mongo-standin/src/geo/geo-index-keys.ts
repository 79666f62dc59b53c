import type { Document } from 'bson';
import { formatValue, geometryDefect, isDocumentOrArray, isPlainObject } from 'geojson-sphere';
import { locationError } from '../errors.ts';
import { valuesAtPath } from './field-values.ts';

/** null, undefined and empty arrays or documents: MongoDB (2dsphere v2+) indexes nothing for them. */
const isAbsentGeometry = (value: unknown): boolean =>
  value === null || value === undefined || (isDocumentOrArray(value) && Object.keys(value).length === 0);

/**
 * The check MongoDB makes when `doc` is written to a collection with a 2dsphere index on `path`: every
 * geometry found there must be valid, else the write fails with Location16755.
 */
export function validateGeoKeys(doc: Document, path: string): void {
  const values = valuesAtPath(doc, path);
  if (values.length === 1 && isAbsentGeometry(values[0])) return;
  const fieldName = path.split('.').at(-1)!;
  // An array of GeoJSON objects is a multi-location field: MongoDB indexes each element (multikey); an
  // array of numbers stays one legacy point.
  const geometries = values.flatMap((value) =>
    Array.isArray(value) && value.some(isPlainObject) ? value : [value],
  );
  for (const value of geometries) {
    const defect = geometryDefect(value, fieldName);
    if (defect !== undefined) {
      throw locationError(16755, `Can't extract geo keys: ${formatValue(doc)}  ${defect}`);
    }
  }
}
