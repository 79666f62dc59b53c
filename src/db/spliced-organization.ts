import type { Db, Document } from 'mongodb';
import { documentCollection } from './collections.ts';
import {
  isRawDocument,
  isStoredForm,
  rawBytes,
  rawElements,
  rawNumber,
  rawString,
  servedBytes,
  storedBytes,
} from './served-bytes.ts';
import { INTERNAL_FIELDS } from './served-fields.ts';
import { withField, type Json } from '../json.ts';

/**
 * A service's record nests its organization whole (without the organization's own list of services), and
 * the services of one provider all nest the same one: stored with each, it was two fifths of a service's
 * stored bytes. It is stored once, with the organization (its `_json`), and spliced into its services'
 * records when they are read: a service's stored `_json` leaves it out and says where it goes,
 * `_organization_at` bytes in (just before its services at location, at `_head`). A service's `_hash` is
 * that of the record as served, organization included; its ETag is taken from the bytes sent (it stores
 * none: an organization written before its services are would make a stored one name other bytes).
 *
 * Documents stored by releases before this one hold their organization and have no `_organization_at`:
 * they are sent as stored until `npm run rebuild` writes them again (docs/operations.md, Upgrading).
 */

/** The fields a service is read with to have its organization spliced in. */
export const ORGANIZATION_SPLICE = { organization: 1, _organization_at: 1 } as const;

/** What splicing its organization into a service takes of its stored document. */
export interface StoredService {
  /** Its stored `_json`. */
  json: Buffer;
  /** Which organization goes where: none for a service with no organization to splice in. */
  organization?: { id: string; at: number };
}

/** A stored service read with `_json` and ORGANIZATION_SPLICE. */
export function storedService(document: Document): StoredService {
  const id = organizationToSplice(document);
  const json = storedBytes(document._json);
  return id === undefined
    ? { json }
    : { json, organization: { id, at: document._organization_at as number } };
}

/**
 * The same, read undecoded (the driver's `raw`) with a projection of those fields alone: a full stream
 * sends nothing else of the document, and decoding each was a fifth of the app's work per record.
 */
export function rawStoredService(document: Uint8Array): StoredService {
  const what = 'its served form and organization';
  const raw = rawBytes(document);
  let json: Buffer | undefined;
  let id: unknown;
  let at: unknown;
  for (const element of rawElements(raw, what)) {
    if (element.name === '_json' && isStoredForm(element)) json = raw.subarray(element.start, element.end);
    else if (element.name === '_organization_at') at = rawNumber(raw, element);
    else if (element.name === 'organization' && isRawDocument(element))
      for (const field of rawElements(raw, what, element.start))
        if (field.name === 'id') id = rawString(raw, field);
  }
  if (!json) throw new Error(`a document read for ${what} has no served form`);
  return spliceAt(json, id, at);
}

const spliceAt = (json: Buffer, id: unknown, at: unknown): StoredService =>
  typeof id === 'string' && typeof at === 'number' ? { json, organization: { id, at } } : { json };

/** The id of the organization to splice into a stored service (read with ORGANIZATION_SPLICE), if any. */
export function organizationToSplice(document: Document): string | undefined {
  const id = (document.organization as Document | undefined)?.id;
  return typeof id === 'string' && typeof document._organization_at === 'number' ? id : undefined;
}

/**
 * A stored service's served record, or its first `end` bytes, as the parts to send in order: its
 * organization's served form (`organization`, from `organizationForms`) spliced in where it goes. A service
 * whose organization is not stored (removed, its services not yet written again) is sent without it.
 */
export function servicePieces(
  { json, organization: splice }: StoredService,
  organization: Buffer | undefined,
  end?: number,
): Buffer[] {
  if (!splice || organization === undefined) return [json.subarray(0, end)];
  const { at } = splice;
  const rest = json.subarray(at, end);
  // `{` and the service's fields, then the organization, then the rest (`,"service_at_locations":[…]}`,
  // `}`, or nothing when the head alone is asked for).
  return [
    json.subarray(0, at),
    at > 1 ? COMMA_ORGANIZATION_KEY : ORGANIZATION_KEY,
    organization,
    ...(rest.length === 0 || rest[0] === COMMA || rest[0] === CLOSING_BRACE ? [] : [COMMA_BYTE]),
    rest,
  ];
}

const COMMA = 0x2c;
const CLOSING_BRACE = 0x7d;
const COMMA_BYTE = Buffer.from(',');

/**
 * A composed service's JSON as its services at location nest it (no `service_at_locations`): its own
 * fields, then its organization, where reads splice it in; and `own`, its own fields alone, with which
 * its stored `_json` begins.
 */
export function serviceJson(service: Json): { own: string; alone: string } {
  const { service_at_locations: _pairings, organization, ...fields } = service;
  const own = JSON.stringify(fields);
  if (organization === undefined) return { own, alone: own };
  return { own, alone: withField(own, 'organization', JSON.stringify(organization)) };
}

/** A stored service's served record, its organization spliced in (servicePieces, joined). */
export function servedService(service: StoredService, organization: Buffer | undefined): Buffer {
  const pieces = servicePieces(service, organization);
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}

/**
 * Stored services' served records, in their order, each in the pieces servicePieces gives: one query for
 * their organizations (those `kept` does not hold already).
 */
export async function servedServices(
  db: Db,
  services: StoredService[],
  kept?: KeptOrganizations,
): Promise<Buffer[][]> {
  const ids = services.flatMap((service) => service.organization?.id ?? []);
  const organizations = await (kept ? kept.forms(db, ids) : organizationForms(db, ids));
  return services.map((service) => {
    const id = service.organization?.id;
    return servicePieces(service, id === undefined ? undefined : organizations.get(id));
  });
}

/**
 * What one stream keeps of organizations at most: the forms of two thousand organizations of ~4 KB (the
 * bench's 10,000 generated services have a thousand), beside the two batches of ~1 MB it holds.
 */
const KEPT_BYTES = 8 * 1024 * 1024;

/** A budget of bytes that several holders take from and give back to. */
export class SharedBytes {
  private taken = 0;
  constructor(readonly limit: number) {}
  /** Takes `size` bytes if they are left. */
  take(size: number): boolean {
    if (this.taken + size > this.limit) return false;
    this.taken += size;
    return true;
  }
  give(size: number): void {
    this.taken -= size;
  }
  get inUse(): number {
    return this.taken;
  }
}

/**
 * What the streams under way keep of organizations together at most: four streams' worth. A stream held
 * by a client that stopped reading keeps its share until the client goes: others meanwhile keep less, and
 * read the organizations of each batch again.
 */
export const keptByStreams = new SharedBytes(4 * KEPT_BYTES);

/**
 * Organizations' served forms read for one stream, kept for its later batches: a provider's services are
 * spread over the whole order of a list, so without them each batch of 100 read again most of the
 * organizations the one before read (the stream of full services ran at half its pace). Those not stored
 * are remembered too. Up to KEPT_BYTES a stream, their ids and bookkeeping counted; past it, those not kept
 * are read for each batch, and so when the streams under way keep `keptByStreams`' limit together: many
 * streams at once keep no more than that (each gives back its share when it ends). A stream is no
 * snapshot: an organization changed while it runs may be sent as it was, as a service read earlier is.
 */
export class KeptOrganizations {
  /** By id: the served form, or null for an organization not stored. */
  private readonly kept = new Map<string, Buffer | null>();
  private bytes = 0;

  /** `shared`: a budget it draws on besides its own limit (streams share `keptByStreams`). */
  constructor(private readonly shared?: SharedBytes) {}

  /** Lets go of what it kept, given back to the budget it shares: when its stream ends. */
  release(): void {
    this.shared?.give(this.bytes);
    this.bytes = 0;
    this.kept.clear();
  }

  /** The served forms of these organizations, by id: those kept, and the others read with one query. */
  async forms(db: Db, ids: Iterable<string>): Promise<Map<string, Buffer>> {
    const forms = new Map<string, Buffer>();
    const unread = new Set<string>();
    for (const id of ids) {
      const form = this.kept.get(id);
      if (form) forms.set(id, form);
      else if (form === undefined) unread.add(id);
    }
    if (unread.size === 0) return forms;
    const read = await organizationForms(db, unread);
    for (const id of unread) {
      const form = read.get(id);
      if (form) forms.set(id, form);
      const size = (form?.length ?? 0) + id.length + ENTRY_BYTES;
      if (this.bytes + size > KEPT_BYTES || this.shared?.take(size) === false) continue;
      // A copy: the form is a view of the reply that read it, which it would otherwise keep whole.
      this.kept.set(id, form ? Buffer.from(form) : null);
      this.bytes += size;
    }
    return forms;
  }
}

/** What a kept entry costs besides its form and its id: the map's entry, the Buffer. */
const ENTRY_BYTES = 150;

const ORGANIZATION_KEY = Buffer.from('"organization":');
const COMMA_ORGANIZATION_KEY = Buffer.from(',"organization":');

/**
 * The served forms of these organizations (one query), by id. An organization stored by an earlier
 * release has no `_json`: its form is its stored fields, serialized here, until a rebuild writes it.
 */
export async function organizationForms(db: Db, ids: Iterable<string>): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(ids)];
  const forms = new Map<string, Buffer>();
  if (wanted.length === 0) return forms;
  // Read undecoded: the forms are bytes to send, and a stream reads a thousand of them.
  const found = db
    .collection(documentCollection.organization)
    .find({ id: { $in: wanted } }, { projection: ORGANIZATION_FORM, batchSize: wanted.length, raw: true });
  const unformed: string[] = [];
  for await (const document of found) {
    const raw = rawBytes(document as unknown as Uint8Array);
    let id: string | undefined;
    let form: Buffer | undefined;
    for (const element of rawElements(raw, 'its served form')) {
      if (element.name === 'id') id = rawString(raw, element);
      else if (element.name === '_json' && isStoredForm(element))
        form = raw.subarray(element.start, element.end);
    }
    if (id === undefined) continue;
    if (form) forms.set(id, form);
    else unformed.push(id);
  }
  for (const [id, form] of await fieldsAsServed(db, unformed)) forms.set(id, form);
  return forms;
}

/**
 * The served form of the organization with this id, given its document as read with ORGANIZATION_FORM
 * (null: not stored).
 */
export async function organizationFormOf(
  db: Db,
  id: string,
  found: Document | null,
): Promise<Buffer | undefined> {
  if (!found) return undefined;
  return organizationForm(found) ?? (await fieldsAsServed(db, [id])).get(id);
}

/** Organizations stored by an earlier release, without `_json`: their record fields as stored, serialized. */
async function fieldsAsServed(db: Db, ids: string[]): Promise<Map<string, Buffer>> {
  const forms = new Map<string, Buffer>();
  if (ids.length === 0) return forms;
  for await (const organization of db
    .collection(documentCollection.organization)
    .find({ id: { $in: ids } }, { projection: FIELDS_AS_SERVED }))
    forms.set(organization.id as string, servedBytes(JSON.stringify(organization)));
  return forms;
}

/** What an organization is read with for its served form (found with `_json` only). */
export const ORGANIZATION_FORM = { _id: 0, id: 1, _json: 1 } as const;

/** An organization's served form, read with ORGANIZATION_FORM; undefined if it has none stored. */
export const organizationForm = (organization: Document): Buffer | undefined =>
  organization._json === undefined ? undefined : storedBytes(organization._json);

/** An organization's record fields as stored, in their order: what an earlier release's document serves. */
const FIELDS_AS_SERVED: Record<string, 0> = Object.fromEntries(
  [...INTERNAL_FIELDS, 'services'].map((field) => [field, 0]),
);
