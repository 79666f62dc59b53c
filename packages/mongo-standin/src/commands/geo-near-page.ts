import type { Document } from 'bson';
import { cloneDocument, isPlainObject } from '../bson-values.ts';
import type { Collection } from '../engine/collection.ts';
import type { Database } from '../engine/database.ts';
import { runGeoNearStage, type GeoNearSource } from '../geo/index.ts';
import { filterFields } from '../storage/field-subset.ts';
import { parseSort, sortDocuments } from '../query/sort.ts';

/** The record each document measured in a page's first pass was read from. */
const RECORD = Symbol('record');

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * A page of a proximity search: `$geoNear`, a `$sort` on its distance first (then other keys), an optional
 * `$skip`, and a `$limit`. MongoDB keeps only the top skip + limit while sorting; the stand-in likewise
 * measures and sorts documents read only as far as the stage's query and the sort need, then reads whole
 * just those on the page. Null for any other pipeline, which runs the stage over whole documents.
 */
export function geoNearPage(
  database: Database,
  collection: Collection,
  pipeline: Document[],
): { docs: Document[]; rest: Document[] } | null {
  const [first, sortStage, ...after] = pipeline;
  const spec = first?.$geoNear as unknown;
  if (!isPlainObject(spec) || spec.includeLocs !== undefined) return null;
  const distanceField = spec.distanceField;
  if (typeof distanceField !== 'string' || distanceField.includes('.')) return null;
  if (!isPlainObject(sortStage?.$sort)) return null;
  const sort = parseSort(sortStage.$sort);
  const [firstKey, direction] = Object.entries(sort)[0]!;
  if (firstKey !== distanceField || direction !== 1) return null;
  let next = 0;
  const skip = after[next]?.$skip ?? 0;
  if (after[next]?.$skip !== undefined) next++;
  const limit = after[next]?.$limit;
  if (!isCount(skip) || !isCount(limit) || limit === 0) return null;

  let thin = false;
  const source: GeoNearSource = (path, region, query) => {
    const candidates = collection.candidates(query ?? {}, null, { path, region });
    const read = filterFields(query, sort);
    if (!candidates.ids || !read) return candidates.docs;
    read.add(path.split('.', 1)[0]!);
    thin = true;
    return readThin(collection, candidates.ids, { read, reply: null });
  };
  const indexes = collection.indexSpecs.map((index) => ({ key: index.key, name: index.name }));
  const measured = runGeoNearStage(spec, source, {
    indexes,
    compileFilter: database.compileFilter,
    namespace: collection.namespace,
  });
  const page = sortDocuments(measured, sort).slice(skip, skip + limit);
  const docs = page.flatMap((doc) => {
    if (!thin) return [cloneDocument(doc)];
    // A fresh object: the document read keeps the bytes it was read from, for a reply that shows it whole.
    const whole = collection.readRecord((doc as Record<symbol, unknown>)[RECORD] as number);
    return whole ? [{ ...whole, [distanceField]: doc[distanceField] }] : [];
  });
  return { docs, rest: after.slice(next + 1) };
}

function* readThin(
  collection: Collection,
  ids: Iterable<number>,
  fields: NonNullable<Parameters<Collection['readRecord']>[1]>,
): Generator<Document> {
  for (const id of ids) {
    const doc = collection.readRecord(id, fields);
    if (doc) yield Object.assign(doc, { [RECORD]: id });
  }
}
