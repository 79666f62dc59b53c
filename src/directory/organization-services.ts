import type { Db, Document } from 'mongodb';
import { documentCollection } from '../db/collections.ts';
import { fullProjectionWithChangeTimes, takeChangeTimes } from '../db/served-fields.ts';
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
  for (const service of services) {
    const organizationId = full ? (service.organization_id as string) : (service.organization?.id as string);
    if (!full) delete service.organization;
    const time = latestTime(changed.get(organizationId), takeChangeTimes(service).changed);
    if (time) changed.set(organizationId, time);
    if (!byOrganization.has(organizationId)) byOrganization.set(organizationId, []);
    byOrganization.get(organizationId)!.push(service);
  }
  for (const organization of organizations) organization.services = byOrganization.get(organization.id) ?? [];
  return changed;
}

/** The services of organizations, whole (less their copy of the organization) or by id, with their change times. */
const FULL_SERVICES = { ...fullProjectionWithChangeTimes, organization: 0 };
const SERVICE_IDS = { _id: 0, id: 1, organization: { id: 1 }, _changed: 1 };

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
