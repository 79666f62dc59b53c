import type { Db, Document } from 'mongodb';
import { documentCollection } from './collections.ts';
import { storedBytes } from './served-bytes.ts';
import {
  ORGANIZATION_SPLICE,
  organizationForms,
  organizationToSplice,
  servicePieces,
  storedService,
} from './spliced-organization.ts';

/**
 * A service at location's record nests its whole service (without the service's own list of services at
 * location), and its list item nests the service's list item. Neither copy is stored with each pairing: a
 * pairing stores its own part of each form (`_json`: the record without `service`, with its location and
 * children; `_item`: the list item without `service`) and names its service (`service.id`, with the
 * service's `organization.id`). The service's stored `_json` puts its `service_at_locations` last, and
 * `_head` is the byte length of what comes before them (its organization spliced in there:
 * spliced-organization.ts); its `_item` is nested whole. The served forms are spliced when read: the
 * pairing's own part less its closing brace, `,"service":`, the service's part, and the braces closing both.
 */
function spliceService(own: Buffer, service: Buffer[]): Buffer[] {
  const empty = own.length <= 2; // `{}`: no field before `service`
  return [own.subarray(0, own.length - 1), empty ? SERVICE_KEY : COMMA_SERVICE_KEY, ...service, CLOSE_BOTH];
}

const SERVICE_KEY = Buffer.from('"service":');
const COMMA_SERVICE_KEY = Buffer.from(',"service":');
const CLOSE_BOTH = Buffer.from('}}');

/** A served form a pairing stores its own part of: the whole record, or the list item. */
export type SplicedForm = '_json' | '_item';

/** What a pairing's stored document is read with for a served form: its own part, and its service's id. */
export const ownForm = (form: SplicedForm) => ({ [form]: 1, service: 1 });

/** What a service is read with to be spliced into its pairings' form. */
export const serviceForm = (form: SplicedForm) =>
  form === '_json'
    ? { _id: 0, id: 1, _json: 1, _head: 1, ...ORGANIZATION_SPLICE }
    : { _id: 0, id: 1, _item: 1 };

/** The id of the organization a stored pairing's service nests, if any. */
export const organizationIdOf = (pairing: Document): string[] => {
  const id = ((pairing.service as Document | undefined)?.organization as Document | undefined)?.id;
  return typeof id === 'string' ? [id] : [];
};

/**
 * The served forms of some pairings (read with `ownForm`), in their order and in pieces: one query for all
 * their services, and for whole records one for their organizations beside it. A pairing without a service
 * (none loaded yet), or whose service is not stored (left out for its size), is served as it is stored,
 * without `service`.
 */
export async function splicedRecords(
  db: Db,
  pairings: Document[],
  form: SplicedForm = '_json',
): Promise<Buffer[][]> {
  const serviceIds = [...new Set(pairings.flatMap(serviceIdOf))];
  const services = new Map<string, Document>();
  const readServices = async () => {
    if (serviceIds.length === 0) return;
    // All in the first batch: a page's or a stream batch's services, which the caller sized.
    const found = db
      .collection(documentCollection.service)
      .find({ id: { $in: serviceIds } }, { projection: serviceForm(form), batchSize: serviceIds.length });
    for await (const service of found) services.set(service.id as string, service);
  };
  // The organizations their pairings name, read beside their services; one a service has changed to since
  // its pairing was written is read after.
  const [, organizations] = await Promise.all([
    readServices(),
    form === '_json' ? organizationForms(db, pairings.flatMap(organizationIdOf)) : new Map<string, Buffer>(),
  ]);
  const unread = [...services.values()].flatMap((service) => {
    const id = organizationToSplice(service);
    return id !== undefined && !organizations.has(id) ? [id] : [];
  });
  for (const [id, bytes] of await organizationForms(db, unread)) organizations.set(id, bytes);
  return pairings.map((pairing) => {
    const service = services.get(serviceIdOf(pairing)[0]!);
    const organizationId = service && organizationToSplice(service);
    const organization = organizationId === undefined ? undefined : organizations.get(organizationId);
    return servedRecord(pairing, service, form, organization);
  });
}

/**
 * One pairing's served form, in pieces to send in order, given its service as read with `serviceForm` (or
 * none), and for a whole record the served form of the service's organization (or none).
 */
export function servedRecord(
  pairing: Document,
  service: Document | null | undefined,
  form: SplicedForm = '_json',
  organization?: Buffer,
): Buffer[] {
  const own = storedBytes(pairing[form]);
  if (!service) return [own];
  // A service's item is nested whole: all of it but its closing brace, which CLOSE_BOTH gives back.
  const nested =
    form === '_json'
      ? servicePieces(storedService(service), organization, service._head as number)
      : [storedBytes(service._item).subarray(0, -1)];
  return spliceService(own, nested);
}

/** The id of the service a stored pairing splices in, if any. */
export const serviceIdOf = (pairing: Document): string[] => {
  const id = (pairing.service as Document | undefined)?.id;
  return typeof id === 'string' ? [id] : [];
};
