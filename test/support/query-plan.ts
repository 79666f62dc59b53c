import type { Db, Document } from 'mongodb';

/**
 * The indexes the winning plan of a page's query reads (the filter, sorted by id as pages are, a page
 * long), and whether it scans a whole collection (any plan form).
 */
export async function planOf(db: Db, collection: string, filter: Document) {
  const explained = await db
    .collection(collection)
    .find(filter)
    .sort({ id: 1 })
    .limit(50)
    .explain('queryPlanner');
  const plan = JSON.stringify(explained.queryPlanner?.winningPlan ?? {});
  return {
    collectionScan: plan.includes('"stage":"COLLSCAN"'),
    indexes: [...plan.matchAll(/"indexName":"([^"]+)"/g)].map((match) => match[1]),
  };
}
