import type { Db } from 'mongodb';
import { documentCollection } from '../db/collections.ts';
import { fullProjection } from '../db/served-fields.ts';
import { composeRoots } from './compose.ts';
import { relations, rowCollection, type EntityType } from './entities.ts';

type Json = Record<string, unknown>;

/**
 * Services at location, taken from the service documents rebuilt just before them: a service document
 * already nests each of its services at location fully (location, contacts, phones, schedules), so the
 * pairing's own document is that entry plus the service without its list of locations. This halves the
 * reads of a rebuild. A pairing whose service does not list it (an orphan) is composed from rows instead.
 * Both ways give the same document, key order included, so its hash does not depend on the way taken.
 */
export async function composeServiceAtLocations(
  db: Db,
  ids: string[],
  populated: ReadonlySet<EntityType>,
): Promise<Map<string, Json>> {
  const rows = await db
    .collection<{ _id: string; service_id?: string }>(rowCollection('service_at_location'))
    .find({ _id: { $in: ids } }, { projection: { _id: 1, service_id: 1 } })
    .toArray();
  const serviceIds = [...new Set(rows.map((row) => row.service_id).filter((id) => typeof id === 'string'))];
  const services = new Map<string, Json>();
  for await (const service of db
    .collection(documentCollection.service)
    .find({ id: { $in: serviceIds } }, { projection: fullProjection })) {
    services.set(service.id as string, service);
  }

  const documents = new Map<string, Json>();
  for (const row of rows) {
    const service = row.service_id === undefined ? undefined : services.get(row.service_id);
    const entry = (service?.service_at_locations as Json[] | undefined)?.find((item) => item.id === row._id);
    if (service && entry) documents.set(row._id, withService(entry, service));
  }
  const orphans = ids.filter((id) => !documents.has(id));
  if (orphans.length > 0) {
    for (const [id, document] of await composeRoots(db, 'service_at_location', orphans, populated)) {
      documents.set(id, document);
    }
  }
  return documents;
}

const relationFields = new Set(relations.service_at_location.map((relation) => relation.field));

/** The entry with `service` put where composing from rows puts it: among the relations, in their order. */
function withService(entry: Json, service: Json): Json {
  const { service_at_locations: _others, ...serviceAlone } = service;
  const document: Json = {};
  for (const [key, value] of Object.entries(entry)) if (!relationFields.has(key)) document[key] = value;
  for (const { field } of relations.service_at_location) {
    if (field === 'service') document.service = serviceAlone;
    else if (entry[field] !== undefined) document[field] = entry[field];
  }
  return document;
}
