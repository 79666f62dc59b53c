import { geometryProblem, type GeoJsonGeometry } from './indexable.ts';
import { isJsonObject } from '../json.ts';

/** What a service area covers, in the forms postcode search can use. */
export interface Coverage {
  /** Areas given as GeoJSON polygons that MongoDB can index. */
  areas: GeoJsonGeometry[];
  /** Postcodes the area lists, normalized (upper case, no spaces). */
  postcodes: string[];
  /** Why parts of the data could not be used. */
  problems: string[];
}

const AREA_TYPES = new Set(['Polygon', 'MultiPolygon']);
/**
 * A postcode or ZIP code token: letters, digits, spaces and dashes, 3 to 10 characters, a digit among them
 * (every postcode system's codes have one; `Statewide`, `Maine` or `Seattle` are places, not codes).
 */
const POSTCODE = /^(?=.*\d)[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$/i;
/** A label before a code (`ZIP 04101`, `Postcode: SW1A 1AA`), not part of it. */
const POSTCODE_LABEL = /^(zip ?codes?|zip|post ?codes?|postal codes?)\b\s*:?\s*/i;

export function normalizePostcode(postcode: string): string {
  const key = postcode.toUpperCase().replace(/\s+/g, '');
  // One spelling of a US ZIP+4 (`98106-1234`), however it was typed (`98106 1234`, `981061234`).
  const zipPlusFour = ZIP_PLUS_FOUR.exec(key);
  return zipPlusFour ? `${zipPlusFour[1]}-${zipPlusFour[2]}` : key;
}

const ZIP_PLUS_FOUR = /^(\d{5})-?(\d{4})$/;

/** The five-digit ZIP of a normalized US ZIP or ZIP+4 code (`98106`, `98106-1234`), else undefined. */
export const fiveDigitZip = (key: string): string | undefined => /^(\d{5})(-\d{4})?$/.exec(key)?.[1];

/**
 * The spellings under which a service area may list this postcode: normalized, and for a ZIP+4 code also
 * its ZIP, which it lies in (areas list ZIPs).
 */
export function listedPostcodes(postcode: string): string[] {
  const key = normalizePostcode(postcode);
  const zip = fiveDigitZip(key);
  // A ZIP+4 typed with a space was stored without it and its dash before there was one spelling.
  return zip === undefined || zip === key ? [key] : [key, zip, key.replace('-', '')];
}

/**
 * Reads a service area's `extent`: a GeoJSON Polygon/MultiPolygon (`extent_type` geojson), or a list of
 * postcodes (`extent_type` text whose every comma-, semicolon- or newline-separated item is a postcode,
 * labelled or not). Anything else (KML, TopoJSON, free text such as `Statewide`) is kept as data but does
 * not take part in search: a service whose area says no postcode is found by every postcode search, where
 * one read as listing postcodes it does not is found by none.
 */
export function coverageOf(areas: Array<Record<string, unknown>>): Coverage {
  const coverage: Coverage = { areas: [], postcodes: [], problems: [] };
  for (const area of areas) {
    const { extent, extent_type: type, id } = area;
    if (typeof extent !== 'string' || extent.trim() === '') continue;
    if (type === 'geojson') {
      const geometry = parseGeometry(extent);
      if (typeof geometry === 'string') coverage.problems.push(`service area ${String(id)}: ${geometry}`);
      else coverage.areas.push(geometry);
    } else if (type === 'text' || type === undefined) {
      const items = extent
        .split(/[,;\n]/)
        .map((item) => item.trim().replace(POSTCODE_LABEL, ''))
        .filter(Boolean);
      if (items.length > 0 && items.every((item) => POSTCODE.test(item))) {
        coverage.postcodes.push(...items.map(normalizePostcode));
      }
    }
  }
  coverage.postcodes = [...new Set(coverage.postcodes)];
  return coverage;
}

function parseGeometry(extent: string): GeoJsonGeometry | string {
  let value: unknown;
  try {
    value = JSON.parse(extent);
  } catch {
    return 'extent is not valid JSON';
  }
  // A Feature wrapping the geometry is common in the wild; its geometry is what we index.
  if (isJsonObject(value) && value.type === 'Feature' && isJsonObject(value.geometry)) value = value.geometry;
  if (!isJsonObject(value) || typeof value.type !== 'string' || !AREA_TYPES.has(value.type)) {
    return 'extent is not a GeoJSON Polygon or MultiPolygon';
  }
  const geometry = { type: value.type, coordinates: value.coordinates };
  const problem = geometryProblem(geometry);
  return problem === undefined ? geometry : `extent is not a valid polygon: ${problem}`;
}
