import type { Db, Document } from 'mongodb';
import { documentCollection } from '../db/collections.ts';
import { storedBytes } from '../db/served-bytes.ts';
import { latestTime } from './latest-time.ts';

/**
 * Fills organizations' `services`: ids only, or (`full_service`) the full services, each without its
 * embedded copy of the organization. Stored organization documents leave services out so that a large
 * provider cannot outgrow a document; this join costs one indexed query per batch of organizations.
 * Gives, by organization id, when the latest of its services last changed.
 */
export async function attachServices(
  db: Db,
  organizations: Document[],
  full: boolean,
): Promise<Map<string, Date>> {
  const changed = new Map<string, Date>();
  if (organizations.length === 0) return changed;
  const projection = full ? FULL_SERVICES : SERVICE_IDS;
  const services = await db
    .collection(documentCollection.service)
    .find(
      { 'organization.id': { $in: organizations.map((organization) => organization.id) } },
      { projection },
    )
    .sort({ id: 1 })
    .toArray();
  const byOrganization = new Map<string, Document[]>();
  for (const stored of services) {
    const organizationId = stored.organization.id as string;
    const time = latestTime(changed.get(organizationId), stored._changed);
    if (time) changed.set(organizationId, time);
    if (!byOrganization.has(organizationId)) byOrganization.set(organizationId, []);
    byOrganization.get(organizationId)!.push(full ? withoutOrganization(stored) : { id: stored.id });
  }
  for (const organization of organizations) organization.services = byOrganization.get(organization.id) ?? [];
  return changed;
}

/** A service as served (its stored served form), less its copy of the organization. */
function withoutOrganization(stored: Document): Document {
  const { organization: _organization, ...service } = JSON.parse(
    storedBytes(stored._json).toString('utf8'),
  ) as Document;
  return service;
}

/** The services of organizations, whole or by id, with their organization's id and their change times. */
const FULL_SERVICES = { _id: 0, organization: 1, _json: 1, _changed: 1 };
const SERVICE_IDS = { _id: 0, id: 1, organization: 1, _changed: 1 };

/** The same for a stream of organizations, a batch at a time. */
export async function* withServices(db: Db, organizations: AsyncIterable<Document>, full: boolean) {
  let batch: Document[] = [];
  for await (const organization of organizations) {
    batch.push(organization);
    if (batch.length === 100) {
      await attachServices(db, batch, full);
      yield* batch;
      batch = [];
    }
  }
  await attachServices(db, batch, full);
  yield* batch;
}
