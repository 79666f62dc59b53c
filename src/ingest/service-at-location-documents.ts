import type { Db } from 'mongodb';
import { documentCollection } from '../db/collections.ts';
import { serviceForm } from '../db/spliced-service.ts';
import {
  organizationForms,
  organizationToSplice,
  servedService,
  serviceJson,
  servicePieces,
  storedService,
} from '../db/spliced-organization.ts';
import { composeRoots } from './compose.ts';
import { relations } from '../hsds/entities.ts';
import type { RowSource } from './row-source.ts';
import type { Json } from '../json.ts';

/** A service as a rebuild wrote it: the record as composed, and its JSON without its services at location. */
export interface FreshService {
  document: Json;
  alone: string;
}

/**
 * A composed record; for a service at location, also its service's JSON as it is spliced in when read (if it
 * has one).
 */
export interface Composed {
  document: Json;
  serviceAlone?: string;
}

/**
 * Services at location, taken from their service documents: a service document already nests each of its
 * services at location fully (location, contacts, phones, schedules), so the pairing's record is that entry
 * plus the service without its list of locations. Services this rebuild has just written are given in
 * `fresh`; the others are read (their stored served form). A pairing whose service does not list it (an
 * orphan: its service not loaded yet, say) is composed from rows instead; one with no service has none.
 * Both ways give the same record, key order included, so its hash does not depend on the way taken.
 */
export async function composeServiceAtLocations(
  db: Db,
  source: RowSource,
  ids: string[],
  fresh: ReadonlyMap<string, FreshService>,
): Promise<Map<string, Composed>> {
  const rows = await source.byIds('service_at_location', ids);
  const services = new Map<string, FreshService>();
  const unread = new Set<string>();
  for (const { service_id: serviceId } of rows) {
    if (typeof serviceId !== 'string') continue;
    const service = fresh.get(serviceId);
    if (service) services.set(serviceId, service);
    else unread.add(serviceId);
  }
  if (unread.size > 0) {
    const stored = await db
      .collection(documentCollection.service)
      .find({ id: { $in: [...unread] } }, { projection: serviceForm('_json') })
      .toArray();
    const organizations = await organizationForms(
      db,
      stored.flatMap((service) => organizationToSplice(service) ?? []),
    );
    for (const document of stored) {
      const service = storedService(document);
      const id = service.organization?.id;
      const organization = id === undefined ? undefined : organizations.get(id);
      const json = servedService(service, organization).toString('utf8');
      // Its head as its pairings splice it: up to `_head`, its organization in.
      const head = Buffer.concat(servicePieces(service, organization, document._head as number));
      services.set(document.id as string, {
        document: JSON.parse(json) as Json,
        alone: `${head.toString('utf8')}}`,
      });
    }
  }

  const documents = new Map<string, Composed>();
  for (const row of rows) {
    const service = typeof row.service_id === 'string' ? services.get(row.service_id) : undefined;
    const pairings = service?.document.service_at_locations as Json[] | undefined;
    const entry = pairings?.find((item) => item.id === row._id);
    if (service && entry)
      documents.set(row._id, { document: withService(entry, service.document), serviceAlone: service.alone });
  }
  // A pairing with no service at all (its service's list, given in full, left it out) has no document:
  // it would say that nothing is offered there. Its row is kept, for a service that lists it again.
  const serviceless = new Set(rows.filter((row) => typeof row.service_id !== 'string').map((row) => row._id));
  const orphans = ids.filter((id) => !documents.has(id) && !serviceless.has(id));
  if (orphans.length > 0) {
    for (const [id, document] of await composeRoots(source, 'service_at_location', orphans)) {
      const service = document.service as Json | undefined;
      // Its service as the other ways give it: organization last (spliced-organization.ts).
      documents.set(id, { document, ...(service ? { serviceAlone: serviceJson(service).alone } : {}) });
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
