import type { Context } from 'koa';
import type { Document } from 'mongodb';
import { notFound } from '../http/problem.ts';
import { parseListParameters } from './list-params.ts';
import type { Endpoint, QueryContext } from './endpoints.ts';
import { attachServices } from './organization-services.ts';
import { fullProjection } from '../db/served-fields.ts';
import { storedBytes, storesWholeRecord } from '../db/served-bytes.ts';
import { BatchedLookup } from '../db/batched-lookup.ts';

/**
 * GET of one fully nested record: one indexed read of the stored document, which is the response (the
 * reads of concurrent requests made together). Organizations get their services joined (ids, or full
 * services with `full_service=true`).
 */
export function recordHandler(endpoint: Endpoint, { db }: QueryContext) {
  const servedForms = new BatchedLookup(db, endpoint.collection, SERVED_FORM);
  return async (ctx: Context) => {
    const id = (ctx.params as { id: string }).id;
    const collection = db.collection(endpoint.collection);
    const missing = () => notFound(`No ${endpoint.entity.replace(/_/g, ' ')} with id '${id}'.`);
    // Checked before any read: a bad value is a 400 whether or not the record exists.
    const fullServices =
      !storesWholeRecord(endpoint.entity) &&
      parseListParameters(['full_service'], ctx.query, undefined).full_service === true;
    if (storesWholeRecord(endpoint.entity)) {
      // The record as serialized at import: one indexed read, no decoding of the nested document.
      const stored = await servedForms.find(id);
      if (!stored) throw missing();
      const json = storedBytes(stored._json);
      if (json && typeof stored._etag === 'string') {
        if (stored._modified instanceof Date) ctx.lastModified = stored._modified;
        ctx.state.entityTag = stored._etag;
        ctx.type = 'application/json';
        ctx.body = json;
        return;
      }
    }
    const record = await collection.findOne({ id }, { projection: fullProjection });
    if (!record) throw missing();
    if (!storesWholeRecord(endpoint.entity)) await attachServices(db, [record], fullServices);
    const modified = lastModifiedOf(record);
    if (modified) ctx.lastModified = modified;
    ctx.body = record;
  };
}

/** Top-level fields only: `_modified` is `last_modified` as a date, the service's in a service at location. */
const SERVED_FORM = { _id: 0, id: 1, _json: 1, _etag: 1, _modified: 1 };

function lastModifiedOf(record: Document): Date | undefined {
  const value = record.last_modified ?? record.service?.last_modified;
  const date = typeof value === 'string' ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}
