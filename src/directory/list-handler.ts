import type { Context } from 'koa';
import type { Document, FindCursor, AggregationCursor } from 'mongodb';
import { SerializedJson, sendJsonArray, sendNdjson } from '../http/ndjson.ts';
import { pageHeader } from '../http/paging.ts';
import type { Endpoint, ListQuery, QueryContext } from './endpoints.ts';
import { parseListParameters } from './list-params.ts';
import { attachServices, withServices } from './organization-services.ts';
import { withinCircle } from './postcode-query.ts';
import { fullProjection } from '../db/served-fields.ts';

/** Stable order for paging: by id, except proximity results, which come nearest first. */
const ORDER = { id: 1 } as const;

/** GET and POST on a core list endpoint: parameters → query → a page, an NDJSON stream or `minimal`. */
export function listHandler(endpoint: Endpoint, context: QueryContext) {
  return async (ctx: Context) => {
    const body = ctx.method === 'POST' ? (ctx.request as { body?: unknown }).body : undefined;
    const parameters: Record<string, unknown> = parseListParameters(
      endpoint.parameters,
      ctx.query,
      body !== undefined && isEmptyBody(body) ? undefined : body,
    );
    const query = await endpoint.query(parameters, context);
    const collection = context.db.collection(endpoint.collection);

    if (parameters.minimal === true) {
      const cursor = collection
        .find(query.filter, { projection: { _id: 0, id: 1, last_modified: 1 } })
        .sort(ORDER);
      return sendJsonArray(
        ctx,
        mapped(cursor, (service) => ({ id: service.id, modified_date: service.last_modified })),
      );
    }
    const projection = parameters.full === true ? fullProjection : endpoint.listProjection;
    const joinServices = endpoint.entity === 'organization' && parameters.full === true;
    const fullServices = parameters.full_service === true;

    if (parameters.format === 'ndjson') {
      if (parameters.full === true && endpoint.entity !== 'organization') {
        const cursor = open(context, endpoint, query, SERVED_FORM);
        return sendNdjson(ctx, servedRecords(context, endpoint, cursor));
      }
      const cursor = open(context, endpoint, query, projection);
      return sendNdjson(ctx, joinServices ? withServices(context.db, cursor, fullServices) : cursor);
    }
    const page = parameters.page as number;
    const perPage = parameters.per_page as number;
    const [total, contents] = await Promise.all([
      collection.countDocuments(
        query.near ? { $and: [query.filter, withinCircle(query.near)] } : query.filter,
      ),
      open(context, endpoint, query, projection, (page - 1) * perPage, perPage).toArray(),
    ]);
    if (joinServices) await attachServices(context.db, contents, fullServices);
    ctx.body = { ...pageHeader(total, page, perPage, contents.length), contents };
  };
}

function open(
  { db }: QueryContext,
  endpoint: Endpoint,
  query: ListQuery,
  projection: Document,
  skip = 0,
  limit = 0,
): FindCursor<Document> | AggregationCursor<Document> {
  const collection = db.collection(endpoint.collection);
  if (!query.near) {
    const cursor = collection.find(query.filter, { projection }).sort(ORDER).skip(skip);
    return limit > 0 ? cursor.limit(limit) : cursor;
  }
  const pipeline: Document[] = [
    {
      $geoNear: {
        near: query.near.point,
        distanceField: '_distance',
        maxDistance: query.near.maxDistance,
        query: query.filter,
        key: '_geo.point',
        spherical: true,
      },
    },
    { $skip: skip },
    ...(limit > 0 ? [{ $limit: limit }] : []),
    // An inclusion projection leaves the distance out by itself; an exclusion one must name it.
    { $project: Object.values(projection).includes(1) ? projection : { ...projection, _distance: 0 } },
  ];
  return collection.aggregate(pipeline);
}

/** Only the record as serialized at import (organizations have none: their services are joined). */
const SERVED_FORM = { _id: 0, id: 1, _json: 1 };

/**
 * Full records for a stream, as serialized at import: no decoding of nested documents, no serializing.
 * A document stored before that form existed is read whole instead.
 */
async function* servedRecords(context: QueryContext, endpoint: Endpoint, cursor: AsyncIterable<Document>) {
  for await (const document of cursor) {
    if (typeof document._json === 'string') yield new SerializedJson(document._json);
    else {
      yield await context.db
        .collection(endpoint.collection)
        .findOne({ id: document.id }, { projection: fullProjection });
    }
  }
}

async function* mapped(cursor: AsyncIterable<Document>, map: (document: Document) => unknown) {
  for await (const document of cursor) yield map(document);
}

const isEmptyBody = (body: unknown) =>
  body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
