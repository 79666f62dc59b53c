import type { Context } from 'koa';
import { chunked, mapped } from '../async-iterables.ts';
import type { Db, Document, FindCursor, AggregationCursor } from 'mongodb';
import { SerializedJson, sendJsonArray, sendNdjson } from '../http/ndjson.ts';
import { entityTag } from '../http/entity-tag.ts';
import { pageHeader, type PageHeader } from '../http/paging.ts';
import type { Endpoint, ListQuery, QueryContext } from './endpoints.ts';
import { parseListParameters } from './list-params.ts';
import { attachServices, withServices } from './organization-services.ts';
import { geoNearStage, inOrderOf, nearestPage } from './nearest-page.ts';
import { fullProjection } from '../db/served-fields.ts';
import { servedBytes, soleStoredBytes, storesWholeRecord } from '../db/served-bytes.ts';
import { isJsonObject } from '../json.ts';
import { ownForm, splicedRecords, type SplicedForm } from '../db/spliced-service.ts';
import { readAhead, readAheadBatches } from '../db/read-ahead.ts';
import {
  KeptOrganizations,
  keptByStreams,
  type SharedBytes,
  ORGANIZATION_SPLICE,
  rawStoredService,
  servedServices,
} from '../db/spliced-organization.ts';

const COMMA = Buffer.from(',');
const PAGE_END = Buffer.from(']}');

/** Stable order for paging: by id, except proximity results, which come nearest first (then by id). */
const ORDER = { id: 1 } as const;

/**
 * Documents per database batch of a stream, for batches of about a megabyte. Left to the database, a
 * batch after the first is up to 16 MiB: the app holds all of it at once, and waits while the database
 * assembles it. Measured once on the stand-in (nine streams each way), list items streamed ~45% faster
 * with these batches, and full records no slower.
 */
const STREAM_BATCH = { minimal: 10_000, item: 1_000, full: 100 } as const;

/** GET and POST on a core list endpoint: parameters → query → a page, an NDJSON stream or `minimal`. */
export function listHandler(endpoint: Endpoint, context: QueryContext) {
  return async (ctx: Context) => {
    const body = ctx.method === 'POST' ? (ctx.request as { body?: unknown }).body : undefined;
    const parameters: Record<string, unknown> = parseListParameters(
      endpoint.parameters,
      ctx.query,
      body !== undefined && isEmptyBody(ctx, body) ? undefined : body,
      context.unknownParameters,
    );
    // What is open now holds until the next minute (the filters' precision), whatever the data.
    if (parameters.open_now === true) ctx.state.freshUntil = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
    const query = await endpoint.query(parameters, context);
    const collection = context.db.collection(endpoint.collection);

    if (parameters.minimal === true) {
      const cursor = collection
        .find(query.filter, { projection: { _id: 0, id: 1, last_modified: 1 } })
        .sort(ORDER)
        .batchSize(STREAM_BATCH.minimal);
      const entries = mapped(readAhead(cursor), (service) => ({
        id: service.id,
        modified_date: service.last_modified,
      }));
      // One JSON array (spec 4.1 rule 6), or with format=ndjson an entry a line, as every other stream.
      return await (parameters.format === 'ndjson' ? sendNdjson : sendJsonArray)(ctx, entries);
    }
    const page = parameters.page as number;
    const perPage = parameters.per_page as number;
    // An unfiltered list counts from the collection's metadata rather than by reading every document.
    const count = () =>
      Object.keys(query.filter).length === 0
        ? collection.estimatedDocumentCount()
        : collection.countDocuments(query.filter);

    // Organizations in full have their services joined at read time: no stored form to send.
    if (!storesWholeRecord(endpoint.entity) && parameters.full === true) {
      const fullServices = parameters.full_service === true;
      if (parameters.format === 'ndjson') {
        return await sendNdjson(
          ctx,
          withServices(
            context.db,
            readAhead(open(context, endpoint, query, fullProjection, { batchSize: STREAM_BATCH.full })),
            fullServices,
          ),
        );
      }
      const [total, contents] = await Promise.all([
        count(),
        open(context, endpoint, query, fullProjection, {
          skip: (page - 1) * perPage,
          limit: perPage,
        }).toArray(),
      ]);
      await attachServices(context.db, contents, fullServices);
      ctx.body = { ...pageHeader(total, page, perPage, contents.length), contents };
      return;
    }
    // The form stored with each record: `_json` whole, `_item` as a list item (a service at location's
    // with its service spliced in).
    const field = parameters.full === true ? '_json' : '_item';
    const batchSize = field === '_json' ? STREAM_BATCH.full : STREAM_BATCH.item;
    // Spliced when read: a service at location's service, a whole service's organization.
    const splicing = endpoint.entity === 'service_at_location';
    const withOrganization = endpoint.entity === 'service' && field === '_json';
    const served = splicing
      ? { _id: 0, ...ownForm(field) }
      : { _id: 0, [field]: 1, ...(withOrganization ? ORGANIZATION_SPLICE : {}) };
    // Stored forms are read undecoded: their bytes are all that is sent (a service's organization's spliced).
    const raw = !splicing;
    // A batch at a time: what is spliced in is read with one query per batch.
    // `shared`: the budget the organizations kept count in (the streams' together; a page's its own).
    const forms = (batches: AsyncIterable<Document[]>, shared?: SharedBytes) =>
      splicing
        ? splicedForms(context.db, batches, field)
        : withOrganization
          ? organizationSplicedForms(context.db, batches, shared)
          : rawForms(field, batches);
    if (parameters.format === 'ndjson') {
      const cursor = open(context, endpoint, query, served, { batchSize, raw });
      return await sendNdjson(ctx, forms(readAheadBatches(cursor), keptByStreams));
    }
    const skip = (page - 1) * perPage;
    if (query.near) {
      // Proximity is a parameter of services at location alone, whose forms are spliced.
      const nearest = await nearestPage(collection, query.near, query.filter, skip, perPage);
      const documents = inOrderOf(collection, nearest.ids, served);
      const items = await collect(splicedForms(context.db, chunked(documents, batchSize), field));
      sendPage(ctx, pageHeader(nearest.total, page, perPage, items.length), items);
      return;
    }
    const [total, items] = await Promise.all([
      count(),
      collect(
        forms(chunked(open(context, endpoint, query, served, { skip, limit: perPage, raw }), batchSize)),
      ),
    ]);
    sendPage(ctx, pageHeader(total, page, perPage, items.length), items);
  };
}

/**
 * Records in a form stored with them, as serialized at import, from documents read undecoded (`raw`),
 * which the driver gives as their bytes: no decoding and no serializing per read.
 */
async function* rawForms(field: '_json' | '_item', batches: AsyncIterable<Document[]>) {
  for await (const documents of batches)
    for (const document of documents)
      yield new SerializedJson(soleStoredBytes(document as Uint8Array, field));
}

/** Services at location: each batch's services read with one query and spliced in. */
async function* splicedForms(
  db: Db,
  batches: AsyncIterable<Document[]>,
  form: SplicedForm,
): AsyncGenerator<SerializedJson> {
  for await (const pairings of batches)
    for (const record of await splicedRecords(db, pairings, form)) yield new SerializedJson(record);
}

/**
 * Whole services, read undecoded: the organizations of each batch not yet read for the stream (or page)
 * read with one query and spliced in; those kept count in `shared`, when given, until it ends.
 */
async function* organizationSplicedForms(
  db: Db,
  batches: AsyncIterable<Document[]>,
  shared: SharedBytes | undefined,
): AsyncGenerator<SerializedJson> {
  const kept = new KeptOrganizations(shared);
  try {
    for await (const documents of batches) {
      const services = documents.map((document) => rawStoredService(document as Uint8Array));
      for (const record of await servedServices(db, services, kept)) yield new SerializedJson(record);
    }
  } finally {
    kept.release();
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A page whose items are already serialized: the body is assembled from their bytes, and its ETag taken from it. */
function sendPage(ctx: Context, header: PageHeader, items: SerializedJson[]): void {
  const parts = [servedBytes(`${JSON.stringify(header).slice(0, -1)},"contents":[`)];
  for (const [index, item] of items.entries()) {
    if (index > 0) parts.push(COMMA);
    parts.push(...item.pieces);
  }
  parts.push(PAGE_END);
  const body = Buffer.concat(parts);
  ctx.state.entityTag = entityTag(body);
  ctx.type = 'application/json';
  ctx.body = body;
}

/**
 * A page (`skip`, `limit`) or a stream of every match (`batchSize`, see STREAM_BATCH); `raw`: the
 * documents undecoded, as BSON bytes.
 */
interface Range {
  skip?: number;
  limit?: number;
  batchSize?: number;
  raw?: boolean;
}

function open(
  { db }: QueryContext,
  endpoint: Endpoint,
  query: ListQuery,
  projection: Document,
  { skip = 0, limit = 0, batchSize, raw = false }: Range,
): FindCursor<Document> | AggregationCursor<Document> {
  const collection = db.collection(endpoint.collection);
  if (!query.near) {
    const cursor = collection.find(query.filter, { projection, batchSize, raw }).sort(ORDER).skip(skip);
    return limit > 0 ? cursor.limit(limit) : cursor;
  }
  // A stream keeps $geoNear's order, nearest first, unblocked by a sort; pages are read by nearest-page.ts.
  if (skip > 0 || limit > 0) throw new Error('a page of a proximity search is read by nearestPage');
  const pipeline: Document[] = [
    geoNearStage(query.near, query.filter),
    // An inclusion projection leaves the distance out by itself; an exclusion one must name it.
    { $project: Object.values(projection).includes(1) ? projection : { ...projection, _distance: 0 } },
  ];
  return collection.aggregate(pipeline, { batchSize, raw });
}

/**
 * A POST without parameters in its body: `{}`, or no body at all (`Content-Length: 0`, or chunked and
 * empty), which koa-body's lenient JSON parser gives as the empty string, as it does the JSON text `""`:
 * that one (two bytes) stays a body that is not an object.
 */
const isEmptyBody = (ctx: Context, body: unknown) =>
  (body === '' && !(ctx.request.length > 0)) || (isJsonObject(body) && Object.keys(body).length === 0);
