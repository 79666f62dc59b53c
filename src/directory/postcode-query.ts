import type { Document } from 'mongodb';
import type { Gazetteer } from '../geo/gazetteer.ts';
import { listedPostcodes } from '../geo/service-area.ts';
import { invalidParameter } from '../http/problem.ts';

export interface NearPoint {
  point: { type: 'Point'; coordinates: [number, number] };
  maxDistance: number;
}

/**
 * `postcode` and `proximity` on /service_at_locations (spec 4.4):
 * - `postcode` keeps results whose service area covers it: a listed postcode, or a polygon containing the
 *   postcode's centroid. Results with no usable service-area data are kept (nothing says they do not
 *   cover it). A postcode the gazetteer does not know can still match listed postcodes; a ZIP+4 code
 *   matches an area listing its ZIP.
 * - `proximity` (metres, needs `postcode`) keeps results whose location lies within that distance of the
 *   centroid, nearest first; it needs the centroid, so an unknown postcode is a 400.
 */
export function postcodeQuery(
  gazetteer: Gazetteer,
  postcode: string | undefined,
  proximity: number | undefined,
): { filter?: Document; near?: NearPoint } {
  if (postcode === undefined) {
    if (proximity !== undefined) throw invalidParameter('proximity', 'needs a postcode to measure from');
    return {};
  }
  const centroid = gazetteer.lookup(postcode);
  if (proximity !== undefined && centroid === undefined) {
    throw invalidParameter('postcode', `'${postcode}' is not a postcode we know the location of`);
  }
  const point = centroid && {
    type: 'Point' as const,
    coordinates: [centroid.longitude, centroid.latitude] as [number, number],
  };
  const covered: Document[] = [
    { '_geo.postcodes': { $in: listedPostcodes(postcode) } },
    { '_geo.covered': { $ne: true } },
  ];
  if (point) covered.push({ '_geo.areas': { $geoIntersects: { $geometry: point } } });
  return {
    filter: { $or: covered },
    ...(point && proximity !== undefined ? { near: { point, maxDistance: proximity } } : {}),
  };
}
