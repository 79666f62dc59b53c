import type { Db, Document } from 'mongodb';
import { documentCollection } from './collections.ts';
import { storedBytes } from './served-bytes.ts';

/**
 * A service at location's record nests its whole service (without the service's own list of services at
 * location). That copy is not stored with each pairing: a pairing stores its own part (`_json`: the record
 * without `service`, with its location and children) and names its service (`service.id`); the service's
 * stored `_json` puts its `service_at_locations` last, and `_head` is the byte length of what comes before
 * them. The served record is spliced from both stored forms when read: `own` less its closing brace,
 * `,"service":`, the service's head, and the braces closing both.
 */
export function spliceService(own: Buffer, serviceJson: Buffer, head: number): Buffer {
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

/** What a pairing's stored document is read with for its served form: its own part, and its service's id. */
export const OWN_FORM = { _json: 1, service: 1 } as const;

/** What a service is read with to be spliced into its pairings. */
export const SERVICE_HEAD = { _id: 0, id: 1, _json: 1, _head: 1 } as const;

/**
 * The served records of some pairings (read with OWN_FORM), in their order: one query for all their
 * services. A pairing without a service (none loaded yet), or whose service is not stored (left out for
 * its size), is served as it is stored, without `service`.
 */
export async function splicedRecords(db: Db, pairings: Document[]): Promise<Buffer[]> {
  const serviceIds = [...new Set(pairings.flatMap(serviceIdOf))];
  const services = new Map<string, Document>();
  if (serviceIds.length > 0) {
    const found = db
      .collection(documentCollection.service)
      .find({ id: { $in: serviceIds } }, { projection: SERVICE_HEAD });
    for await (const service of found) services.set(service.id as string, service);
  }
  return pairings.map((pairing) => servedRecord(pairing, services.get(serviceIdOf(pairing)[0]!)));
}

/** One pairing's served record, given its service as read with SERVICE_HEAD (or none). */
export function servedRecord(pairing: Document, service: Document | null | undefined): Buffer {
  const own = storedBytes(pairing._json);
  return service ? spliceService(own, storedBytes(service._json), service._head as number) : own;
}

/** The id of the service a stored pairing splices in, if any. */
export const serviceIdOf = (pairing: Document): string[] => {
  const id = (pairing.service as Document | undefined)?.id;
  return typeof id === 'string' ? [id] : [];
};
