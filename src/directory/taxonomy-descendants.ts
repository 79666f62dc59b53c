import type { Db } from 'mongodb';
import { documentCollection } from '../db/collections.ts';

/** Bounds on the walk, so a huge or cyclic taxonomy cannot make one request unbounded. */
const MAX_DEPTH = 12;
const MAX_TERMS = 20_000;

/**
 * A term and every term below it. Filtering by a term means "classified under it": publishers tag
 * records with their most specific term, and a search for "Food" should find the food pantries.
 */
export async function termAndDescendants(db: Db, termId: string): Promise<string[]> {
  const terms = db.collection(documentCollection.taxonomy_term);
  const found = new Set([termId]);
  let level = [termId];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && found.size < MAX_TERMS; depth++) {
    const children = await terms
      .find({ parent_id: { $in: level } }, { projection: { _id: 0, id: 1 } })
      .limit(MAX_TERMS)
      .toArray();
    level = children.map((child) => child.id as string).filter((id) => !found.has(id));
    for (const id of level) found.add(id);
  }
  return [...found];
}
