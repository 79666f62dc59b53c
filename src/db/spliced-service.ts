import type { Db, Document } from 'mongodb';
import { documentCollection } from './collections.ts';
import { storedBytes } from './served-bytes.ts';

/**
 * A service at location's record nests its whole service (without the service's own list of services at
 * location), and its list item nests the service's list item. Neither copy is stored with each pairing: a
 * pairing stores its own part of each form (`_json`: the record without `service`, with its location and
 * children; `_item`: the list item without `service`) and names its service (`service.id`). The service's
 * stored `_json` puts its `service_at_locations` last, and `_head` is the byte length of what comes before
 * them; its `_item` is nested whole. The served forms are spliced when read: the pairing's own part less
 * its closing brace, `,"service":`, the service's part, and the braces closing both.
 */
function spliceService(own: Buffer, serviceJson: Buffer, head: number): Buffer {
  const empty = own.length <= 2; // `{}`: no field before `service`
  return Buffer.concat([
    own.subarray(0, own.length - 1),
    empty ? SERVICE_KEY : COMMA_SERVICE_KEY,
    serviceJson.subarray(0, head),
    CLOSE_BOTH,
  ]);
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
  form === '_json' ? { _id: 0, id: 1, _json: 1, _head: 1 } : { _id: 0, id: 1, _item: 1 };

/**
 * The served forms of some pairings (read with `ownForm`), in their order: one query for all their
 * services. A pairing without a service (none loaded yet), or whose service is not stored (left out for
 * its size), is served as it is stored, without `service`.
 */
export async function splicedRecords(
  db: Db,
  pairings: Document[],
  form: SplicedForm = '_json',
): Promise<Buffer[]> {
  const serviceIds = [...new Set(pairings.flatMap(serviceIdOf))];
  const services = new Map<string, Document>();
  if (serviceIds.length > 0) {
    // All in the first batch: a page's or a stream batch's services, which the caller sized.
    const found = db
      .collection(documentCollection.service)
      .find({ id: { $in: serviceIds } }, { projection: serviceForm(form), batchSize: serviceIds.length });
    for await (const service of found) services.set(service.id as string, service);
  }
  return pairings.map((pairing) => servedRecord(pairing, services.get(serviceIdOf(pairing)[0]!), form));
}

/** One pairing's served form, given its service as read with `serviceForm` (or none). */
export function servedRecord(
  pairing: Document,
  service: Document | null | undefined,
  form: SplicedForm = '_json',
): Buffer {
  const own = storedBytes(pairing[form]);
  if (!service) return own;
  const serviceBytes = storedBytes(service[form]);
  // A service's item is nested whole: all of it but its closing brace, which CLOSE_BOTH gives back.
  const head = form === '_json' ? (service._head as number) : serviceBytes.length - 1;
  return spliceService(own, serviceBytes, head);
}

/** The id of the service a stored pairing splices in, if any. */
export const serviceIdOf = (pairing: Document): string[] => {
  const id = (pairing.service as Document | undefined)?.id;
  return typeof id === 'string' ? [id] : [];
};
