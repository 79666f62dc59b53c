import type { Context } from 'koa';
import { HttpProblem, notFound } from '../http/problem.ts';
import { deletedAt } from '../db/tombstones.ts';
import { parseListParameters } from './list-params.ts';
import type { Endpoint, QueryContext } from './endpoints.ts';
import { attachServices } from './organization-services.ts';
import { fullProjectionWithChangeTimes, takeChangeTimes } from '../db/served-fields.ts';
import { storesWholeRecord } from '../db/served-bytes.ts';
import { BatchedLookup } from '../db/batched-lookup.ts';
import { documentCollection } from '../db/collections.ts';
import { organizationIdOf, ownForm, serviceForm, servedRecord, serviceIdOf } from '../db/spliced-service.ts';
import {
  ORGANIZATION_FORM,
  ORGANIZATION_SPLICE,
  organizationFormOf,
  organizationToSplice,
  servedService,
  storedService,
} from '../db/spliced-organization.ts';
import { entityTag } from '../http/entity-tag.ts';
import { latestTime } from './latest-time.ts';

/**
 * GET of one fully nested record: one indexed read of the stored document, which is the response (the
 * reads of concurrent requests made together). Organizations get their services joined (ids, or full
 * services with `full_service=true`).
 */
export function recordHandler(endpoint: Endpoint, { db, tombstoneDays, unknownParameters }: QueryContext) {
  const splicing = endpoint.entity === 'service_at_location';
  const servedForms = new BatchedLookup(db, endpoint.collection, splicing ? PAIRING_FORM : SERVED_FORM);
  // A service at location's service, read to be spliced in: the other endpoints need none.
  const serviceHeads = splicing
    ? new BatchedLookup(db, documentCollection.service, serviceForm('_json'))
    : undefined;
  // A service's organization, spliced into it (and so into its services at location).
  const organizations = new BatchedLookup(db, documentCollection.organization, ORGANIZATION_FORM);
  const organizationForm = async (id: string | undefined) =>
    id === undefined ? undefined : organizationFormOf(db, id, await organizations.find(id));
  return async (ctx: Context) => {
    const id = (ctx.params as { id: string }).id;
    const what = endpoint.entity.replace(/_/g, ' ');
    // Deleted within HSDS_TOMBSTONE_DAYS: 410, saying when; else 404.
    const missing = async () => {
      const at = await deletedAt(db, endpoint.collection, id, tombstoneDays);
      if (!at) return notFound(`No ${what} with id '${id}'.`);
      return new HttpProblem(410, `The ${what} with id '${id}' was deleted on ${at.toISOString()}.`, {
        extensions: { deleted_at: at.toISOString() },
      });
    };
    // Checked before any read: a bad value is a 400 whether or not the record exists.
    const { full_service: fullServices } = parseListParameters(
      storesWholeRecord(endpoint.entity) ? [] : ['full_service'],
      ctx.query,
      undefined,
      unknownParameters,
    );
    if (storesWholeRecord(endpoint.entity)) {
      // The record as serialized at import: one indexed read, no decoding of the nested document (a
      // service at location's with its service's, spliced in).
      const stored = await servedForms.find(id);
      if (!stored) throw await missing();
      setLastModified(ctx, latestTime(stored._modified) ?? latestTime(stored._changed));
      let body: Buffer;
      if (serviceHeads) {
        // The service and the organization the pairing names, read together; the service's own if it has
        // changed since (its pairing not yet written again).
        const [serviceId] = serviceIdOf(stored);
        const [named] = organizationIdOf(stored);
        const [service, organization] = await Promise.all([
          serviceId === undefined ? null : serviceHeads.find(serviceId),
          organizationForm(named),
        ]);
        const current = service ? organizationToSplice(service) : undefined;
        body = Buffer.concat(
          servedRecord(
            stored,
            service,
            '_json',
            current === named ? organization : await organizationForm(current),
          ),
        );
      } else {
        const service = storedService(stored);
        body = servedService(service, await organizationForm(service.organization?.id));
      }
      // Sent as stored, its stored tag; spliced, one taken from the bytes sent.
      ctx.state.entityTag = (stored._etag as string | undefined) ?? entityTag(body);
      ctx.type = 'application/json';
      ctx.body = body;
      return;
    }
    const record = await db
      .collection(endpoint.collection)
      .findOne({ id }, { projection: fullProjectionWithChangeTimes });
    if (!record) throw await missing();
    const { modified, changed } = takeChangeTimes(record);
    const servicesChanged = (await attachServices(db, [record], fullServices === true)).get(id);
    setLastModified(ctx, latestTime(modified) ?? latestTime(changed, servicesChanged));
    ctx.body = record;
  };
}

/**
 * Top-level fields only (and for a service, its organization's id and where it goes): `_modified` is
 * `last_modified` as a date (the service's, in a service at location), `_changed` when the document last
 * changed (for records without a last_modified).
 */
const SERVED_FORM = {
  _id: 0,
  id: 1,
  _json: 1,
  _etag: 1,
  _modified: 1,
  _changed: 1,
  ...ORGANIZATION_SPLICE,
};
/** A service at location's: its own part and its service's id (its ETag is taken from the spliced bytes). */
const PAIRING_FORM = { _id: 0, id: 1, ...ownForm('_json'), _modified: 1, _changed: 1 };

/**
 * Last-Modified: the record's last_modified when it has one, else when its document (or, for an
 * organization, one of the services it lists) last changed. Never later than now (RFC 9110 8.8.2.1): a
 * publisher's last_modified may lie in the future.
 */
function setLastModified(ctx: Context, time: Date | undefined): void {
  if (!time) return;
  const now = new Date();
  ctx.lastModified = time > now ? now : time;
}
