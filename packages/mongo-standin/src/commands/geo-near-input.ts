import type { Document } from 'bson';
import { cloneDocument, isCount, isPlainObject } from '../bson-values.ts';
import type { Collection } from '../engine/collection.ts';
import type { Database } from '../engine/database.ts';
import { runGeoNearStage, type GeoNearContext, type GeoNearSource } from '../geo/index.ts';
import { filterFields, pipelineFields, type Fields } from '../storage/field-subset.ts';
import { readsOnly } from '../query/read-only-pipeline.ts';
import { parseSort, sortDocuments } from '../query/sort.ts';

/** The record a document measured in a page's first pass was read from (set only on such documents). */
const RECORD = Symbol('record');

/**
 * The documents a pipeline starting with `$geoNear` passes on after it, and the stages left to run: a
 * page of a proximity search read as `geoNearPage` does, otherwise the stage over whole documents, or
 * over those fields that the stages after it read. Copies, unless those stages leave their input as it is:
 * a whole document read keeps the bytes it was read from, for a reply that shows it whole, and one read
 * as far as a few fields may be kept for later searches (`shared`).
 */
export function geoNearInput(
  database: Database,
  collection: Collection,
  pipeline: Document[],
): { docs: Document[]; rest: Document[] } {
  const context: GeoNearContext = {
    indexes: collection.indexSpecs.map((index) => ({ key: index.key, name: index.name })),
    compileFilter: database.compileFilter,
    namespace: collection.namespace,
  };
  const page = geoNearPage(collection, pipeline, context);
  if (page) return page;
  const rest = pipeline.slice(1);
  // When the stages after it read known fields (a page and its total in a `$facet`, say), documents are
  // read only as far as those, the stage's query and its key.
  const after = pipelineFields(rest);
  const source: GeoNearSource = (path, region, query) => {
    const read = after && filterFields(query, undefined);
    if (read) for (const field of [...after!, path.split('.', 1)[0]!]) read.add(field);
    const fields = read && { read, reply: null, shared: true };
    return collection.candidates(query ?? {}, fields, { path, region }).docs;
  };
  const docs = runGeoNearStage(pipeline[0]!.$geoNear as Document, source, context);
  return { docs: readsOnly(rest) ? docs : docs.map(cloneDocument), rest };
}

/**
 * A page of a proximity search: `$geoNear`, a `$sort` on its distance first (then other keys), an optional
 * `$skip`, and a `$limit`. MongoDB keeps only the top skip + limit while sorting; the stand-in likewise
 * measures and sorts documents read only as far as the stage's query and the sort need, then reads whole
 * just those on the page. Null for any other pipeline.
 */
function geoNearPage(
  collection: Collection,
  pipeline: Document[],
  context: GeoNearContext,
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

  const source: GeoNearSource = (path, region, query) => {
    const candidates = collection.candidates(query ?? {}, null, { path, region });
    const read = filterFields(query, sort);
    if (!candidates.ids || !read) return candidates.docs;
    read.add(path.split('.', 1)[0]!);
    return readThin(collection, candidates.ids, { read, reply: null, shared: true });
  };
  const measured = runGeoNearStage(spec, source, context);
  const docs = sortDocuments(measured, sort)
    .slice(skip, skip + limit)
    .flatMap((doc) => {
      const record = (doc as Record<symbol, unknown>)[RECORD] as number | undefined;
      if (record === undefined) return [cloneDocument(doc)];
      // A fresh object, so that the document read keeps its bytes for a reply that shows it whole.
      const whole = collection.readRecord(record);
      return whole ? [{ ...whole, [distanceField]: doc[distanceField] }] : [];
    });
  return { docs, rest: after.slice(next + 1) };
}

/**
 * Documents read only as far as `fields`, each a copy (of what may be kept for later reads) marked with its
 * record (which the stage's copies keep).
 */
function* readThin(collection: Collection, ids: Iterable<number>, fields: Fields): Generator<Document> {
  for (const id of ids) {
    const doc = collection.readRecord(id, fields);
    if (doc) yield { ...doc, [RECORD]: id };
  }
}
