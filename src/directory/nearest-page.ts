import type { Collection, Document } from 'mongodb';
import type { NearPoint } from './postcode-query.ts';

/** `$geoNear` of a proximity search: what `filter` keeps within the distance, each with its `_distance`. */
export const geoNearStage = (near: NearPoint, filter: Document): Document => ({
  $geoNear: {
    near: near.point,
    distanceField: '_distance',
    maxDistance: near.maxDistance,
    query: filter,
    key: '_geo.point',
    spherical: true,
  },
});

/**
 * A page of a proximity search and its total from one pass of `$geoNear`: the ids of the page, nearest
 * first (ties in distance, services at one address, by id: a total order for paging), and how many there
 * are in all. Counting apart would find and measure every match a second time. Only ids leave the
 * `$facet`, whatever the page's size, so its one result stays far below 16 MiB.
 */
export async function nearestPage(
  collection: Collection,
  near: NearPoint,
  filter: Document,
  skip: number,
  limit: number,
): Promise<{ total: number; ids: string[] }> {
  const [result] = await collection
    .aggregate<{ total: { count: number }[]; page: { id: string }[] }>([
      geoNearStage(near, filter),
      // Only what the facet reads goes on, whatever a database's own analysis would keep.
      { $project: { _id: 0, id: 1, _distance: 1 } },
      {
        $facet: {
          total: [{ $count: 'count' }],
          page: [
            { $sort: { _distance: 1, id: 1 } },
            { $skip: skip },
            { $limit: limit },
            { $project: { id: 1 } },
          ],
        },
      },
    ])
    .toArray();
  return { total: result?.total[0]?.count ?? 0, ids: result?.page.map(({ id }) => id) ?? [] };
}

/**
 * The documents with these ids in the order given (one query, one batch). One deleted since its id was
 * read is left out, the page then one short; one changed meanwhile is served as it now is.
 */
export async function* inOrderOf(
  collection: Collection,
  ids: string[],
  projection: Document,
): AsyncGenerator<Document> {
  if (ids.length === 0) return;
  const found = new Map<unknown, Document>();
  for (const document of await collection
    .find({ id: { $in: ids } }, { projection: { ...projection, id: 1 }, batchSize: ids.length })
    .toArray())
    found.set(document.id, document);
  for (const id of ids) {
    const document = found.get(id);
    if (document) yield document;
  }
}
