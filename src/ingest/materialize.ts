import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import { documentCollection } from '../db/collections.ts';
import { bulkWriteWithRemedies, replaceDuplicate, replacing } from './bulk-writes.ts';
import { leavingOutOversized } from './oversized-documents.ts';
import { leavingOutUnindexableGeo } from './unindexable-geo.ts';
import { composeRoots } from './compose.ts';
import { RowSource, type BatchRows } from './row-source.ts';
import { deriveFields } from './derived-fields.ts';
import {
  composeServiceAtLocations,
  type Composed,
  type FreshService,
} from './service-at-location-documents.ts';
import { entityKey, rootEntities, type RootEntity } from '../hsds/entities.ts';
import { dependencyIds } from './parent-chain.ts';
import type { StoredInput } from './unchanged-records.ts';
import { servedBytes, storesWholeRecord } from '../db/served-bytes.ts';
import { listItemOf } from '../db/served-shapes.ts';
import { serviceJson } from '../db/spliced-organization.ts';
import { entityTag } from '../http/entity-tag.ts';
import { documentHash } from './row.ts';
import { WorkBehind } from './work-behind.ts';
import { withTurns } from './event-loop-turns.ts';
import { markDirectoryChanged } from '../db/directory-generation.ts';
import {
  compactChanges,
  publishChanges,
  recordChanges,
  settleUnpublished,
  unlistedIds,
  type Change,
} from '../db/change-feed.ts';
import type { RowChanges } from './row-writer.ts';
import { withField, type Json } from '../json.ts';

export interface MaterializeResult {
  /** Documents written, by root entity. */
  written: Map<RootEntity, number>;
  warnings: string[];
  /** Services whose document was written with its record's fingerprint (`fingerprints`). */
  fingerprinted: Set<string>;
  /** `entity:id` of the roots whose served record changed (or went). */
  changed: Set<string>;
}

/** How many roots are composed and written together. */
const CHUNK = 500;

/**
 * Services written by one rebuild kept in memory for their services at location; past this many (a change
 * to an organization with thousands of services) the rest are read back, so memory stays bounded.
 */
const MAX_FRESH_SERVICES = 5_000;

export interface MaterializeOptions {
  /** The clock for `last_modified`. */
  now: () => string;
  /** The rows the import batch has just written, composed from without reading them back. */
  batch?: BatchRows;
  /**
   * Rewrite documents whose content is unchanged too (with the `last_modified` they have), so that what is
   * derived from the content (search words, geometry, served forms) is derived again.
   */
  refresh?: boolean;
  /** Called before each write; throws to stop (an import that may have lost its lease). */
  beforeWrite?: () => Promise<void>;
  /**
   * Fingerprints of the service records that composed their documents alone in this batch, by service id:
   * kept with each document as `_input` (unchanged-records.ts).
   */
  fingerprints?: ReadonlyMap<string, string>;
  /**
   * Rebuild the roots `changes` names and no document they reach: a rebuild of every document reaches
   * each in its turn.
   */
  rootsOnly?: boolean;
  /** The source whose import makes the changes, named in the change feed. */
  source?: string;
}

/**
 * Rebuilds every nested document the row changes reach, and only those: the roots whose own row changed,
 * every document that shows a touched entity (found through its `_deps` list: parent-chain.ts), and the
 * services at location of every service rebuilt (whose served record changed, or, on a rerun after a
 * crash or an outage, may have changed before its services at location were written).
 * Organizations go first, then services (MATERIALIZED_ORDER): services at location are taken from their
 * services' fresh documents (with the final `last_modified`).
 */
export async function materialize(
  db: Db,
  changes: RowChanges,
  {
    now,
    batch,
    refresh = false,
    beforeWrite,
    rootsOnly = false,
    fingerprints = NONE,
    source: changeSource,
  }: MaterializeOptions,
): Promise<MaterializeResult> {
  const result: MaterializeResult = {
    written: new Map(),
    warnings: [],
    fingerprinted: new Set(),
    changed: new Set(),
  };
  const touched = [...changes.touchedIds];
  const source = await RowSource.open(db, batch);
  // Services written here, as served: their services at location are taken from them without a read (up
  // to MAX_FRESH_SERVICES of them; the others are read back).
  const services = new Map<string, FreshService>();
  // Services rebuilt: each of their services at location shows them. Those whose document is unchanged
  // count too: a run stopped after writing them, before their services at location, left those stale.
  const rebuiltServices: string[] = [];
  // Each chunk's documents are written while the next chunk is composed.
  const writes = new WorkBehind();
  try {
    await settleUnpublished(db, beforeWrite);
    for (const root of MATERIALIZED_ORDER) {
      // Services at location are taken from the services written here; those not kept in memory (past
      // MAX_FRESH_SERVICES, or removed) are read back, once their writes have landed.
      if (root === 'service_at_location' && rebuiltServices.some((id) => !services.has(id)))
        await writes.drain();
      await rebuildRoot(root);
    }
    await writes.drain();
  } finally {
    await writes.settle();
  }
  return result;

  async function rebuildRoot(root: RootEntity): Promise<void> {
    const collection = db.collection(documentCollection[root]);
    const ids = new Set(changes.changedRoots.get(root) ?? []);
    const reached = (filter: Document) => collection.find(filter, { projection: { _id: 0, id: 1 } });
    if (touched.length > 0) {
      for await (const { id } of reached({ _deps: { $in: touched } })) ids.add(id as string);
    }
    if (root === 'service_at_location' && !rootsOnly) {
      for (let start = 0; start < rebuiltServices.length; start += CHUNK) {
        const serviceIds = rebuiltServices.slice(start, start + CHUNK);
        for await (const { id } of reached({ 'service.id': { $in: serviceIds } })) ids.add(id as string);
      }
    }
    const all = [...ids];
    for (let start = 0; start < all.length; start += CHUNK) {
      const chunk = all.slice(start, start + CHUNK);
      const { written, changed } = await rebuild(
        db,
        root,
        chunk,
        {
          source,
          services,
          changes,
          now,
          refresh,
          beforeWrite,
          fingerprints,
          writes,
          changeSource,
        },
        result,
      );
      result.written.set(root, (result.written.get(root) ?? 0) + written);
      if (root === 'service') rebuiltServices.push(...chunk);
      for (const id of changed) result.changed.add(entityKey(root, id));
    }
  }
}

/** What rebuilding a chunk of roots reads from and reports to. */
interface Rebuild extends Omit<MaterializeOptions, 'batch' | 'rootsOnly' | 'fingerprints' | 'source'> {
  fingerprints: ReadonlyMap<string, string>;
  /** Where the chunk's write is queued, to run while the next chunk is composed. */
  writes: WorkBehind;
  source: RowSource;
  services: Map<string, FreshService>;
  changes: RowChanges;
  changeSource: string | undefined;
}

/** Documents written (or removed), and the ids of those whose served record changed. */
interface RebuildResult {
  written: number;
  changed: string[];
}

async function rebuild(
  db: Db,
  root: RootEntity,
  ids: string[],
  { source, services, changes, now, refresh, beforeWrite, fingerprints, writes, changeSource }: Rebuild,
  { warnings, fingerprinted }: Pick<MaterializeResult, 'warnings' | 'fingerprinted'>,
): Promise<RebuildResult> {
  const collection = db.collection(documentCollection[root]);
  const composed: Map<string, Composed> =
    root === 'service_at_location'
      ? await composeServiceAtLocations(db, source, ids, services)
      : new Map([...(await composeRoots(source, root, ids))].map(([id, document]) => [id, { document }]));
  const stored = new Map<string, Json>();
  for await (const document of collection.find(
    { id: { $in: ids } },
    { projection: { _id: 0, id: 1, _hash: 1, last_modified: 1, _changed: 1, _input: 1, organization: 1 } },
  )) {
    stored.set(document.id as string, document);
  }

  const operations: AnyBulkWriteOperation[] = [];
  const changed: string[] = [];
  const feed = new FeedChanges(root);
  // A refresh also lists in the feed the records it does not list (a feed lost, or begun after them).
  const unlisted = refresh ? await unlistedIds(db, documentCollection[root], ids) : new Set<string>();
  for await (const id of withTurns(ids)) {
    const found = composed.get(id);
    const before = stored.get(id);
    if (!found) {
      operations.push({ deleteOne: { filter: { id } } });
      changed.push(id);
      if (before) feed.deleted(id, before);
      continue;
    }
    const { document, serviceAlone } = found;
    // A service's last_modified is not content: the import moves it when the content changes (below). Any
    // other record's is a field like the rest.
    const { last_modified: lastModified, ...contentFields } = document;
    const content = root === 'service' ? contentFields : document;
    // A pairing's own part; its service, stored apart, counts in its hash: a change there changes it too.
    const contentJson = JSON.stringify(root === 'service_at_location' ? withoutService(content) : content);
    const hash =
      serviceAlone === undefined ? documentHash(contentJson) : documentHash(contentJson, serviceAlone);
    // The publisher's last_modified, when the imported data gives one for the service: kept as given, even
    // when it is all that changed. A refresh that finds the document gone makes it as its first import did.
    const given =
      root === 'service' &&
      typeof lastModified === 'string' &&
      (changes.givenLastModified.has(id) || (refresh && !before));
    const unchanged = before?._hash === hash && !(given && before.last_modified !== lastModified);
    if (!unchanged) {
      changed.push(id);
      feed.upserted(id, document, before);
    } else if (unlisted.has(id)) feed.upserted(id, document, before);
    // The record that composed the document alone, and the document's hash then; else what was kept.
    const fingerprint = fingerprints.get(id);
    const input =
      fingerprint === undefined
        ? unchanged
          ? (before._input as StoredInput | undefined)
          : undefined
        : { fingerprint, hash };
    if (unchanged && !refresh) continue;
    // Otherwise a service's last_modified is the time its document changed.
    if (root === 'service')
      document.last_modified = unchanged ? before.last_modified : given ? lastModified : now();
    const derived = deriveFields(root, document);
    warnings.push(...derived.warnings);
    const bookkeeping = {
      ...(input ? { _input: input } : {}),
      ...derived.fields,
      _hash: hash,
      // When what is served last changed (Last-Modified of records without a last_modified).
      _changed: unchanged ? before._changed : new Date(now()),
    };
    const full = storedDocument(root, document, bookkeeping, contentJson);
    if (root === 'service' && services.size < MAX_FRESH_SERVICES)
      services.set(id, { document, alone: full.alone! });
    if (fingerprint !== undefined) fingerprinted.add(id);
    operations.push(before ? replacing('id', full.stored) : { insertOne: { document: full.stored } });
  }
  const entries = await feed.entries(db);
  if (operations.length > 0 || entries.length > 0) {
    await writes.add(async () => {
      await beforeWrite?.();
      // In the feed before the documents, published after them: see change-feed.ts.
      const at = new Date(now());
      const recorded = await recordChanges(db, entries, { at, source: changeSource });
      const leftOut: string[] = [];
      if (operations.length > 0) {
        await bulkWriteWithRemedies(
          collection,
          operations,
          replaceDuplicate('id'),
          leavingOutUnindexableGeo(warnings),
          leavingOutOversized(root, warnings, leftOut),
        );
      }
      // Documents too large to store are not served: deleted in the feed after their upserts.
      const deletions = await new FeedChanges(root)
        .leftOut(leftOut.map((id) => composed.get(id)!.document))
        .entries(db);
      const deleted = await recordChanges(db, deletions, { at, source: changeSource });
      const last = deleted ?? recorded;
      if (!last) return;
      // Caches drop what they kept before a client reading the feed can ask for the changed records.
      await markDirectoryChanged(db);
      await publishChanges(db, last.last);
      if (recorded) await compactChanges(db, recorded.first, feed.compactable(entries));
      if (deleted) await compactChanges(db, deleted.first, deletions);
    });
  }
  return { written: operations.length, changed };
}

/**
 * What a document stores. Services and services at location, the many and large ones, store their served
 * forms and the fields their queries read, not the record's fields beside them: `_json` (the record as
 * served, less what reads splice in) and `_item` (its list shape), serialized once here rather than on
 * every read. A service's `_json` leaves its organization out and puts its services at location last,
 * `_head` bytes in, where the organization goes (`_organization_at`: src/db/spliced-organization.ts); a
 * service at location's `_json` and `_item` leave its service out (src/db/spliced-service.ts). The other
 * roots, few and small, keep the record's fields too, which their queries and joins read, and the strong
 * ETag of their `_json` (`_etag`); an organization's `_json` is its record as its services nest it,
 * without its own `services`, which its endpoint joins when read.
 */
function storedDocument(
  root: RootEntity,
  document: Json,
  bookkeeping: Document,
  contentJson: string,
): { stored: Document; alone?: string } {
  if (root === 'service') {
    const _item = servedBytes(JSON.stringify(listItemOf(root, document)));
    const { service_at_locations: pairings, organization } = document;
    const { own, alone } = serviceJson(document);
    const at = Buffer.byteLength(own) - 1;
    const pairingsJson = pairings === undefined ? undefined : JSON.stringify(pairings);
    // Stored without the organization, which is spliced in when read (src/db/spliced-organization.ts).
    const stored = pairingsJson === undefined ? own : withField(own, 'service_at_locations', pairingsJson);
    const organizationId = (organization as Json | undefined)?.id;
    return {
      stored: {
        id: document.id,
        ...(document.last_modified === undefined ? {} : { last_modified: document.last_modified }),
        ...(organizationId === undefined ? {} : { organization: { id: organizationId } }),
        ...bookkeeping,
        _deps: dependencyIds(root, document),
        _json: servedBytes(stored),
        _head: at,
        ...(organization === undefined ? {} : { _organization_at: at }),
        _item,
      },
      alone,
    };
  }
  if (root === 'service_at_location') {
    const service = document.service as Json | undefined;
    const organizationId = (service?.organization as Json | undefined)?.id;
    const own = withoutService(document);
    return {
      stored: {
        id: document.id,
        ...(service === undefined
          ? {}
          : {
              service: {
                id: service.id,
                ...(organizationId === undefined ? {} : { organization: { id: organizationId } }),
              },
            }),
        ...bookkeeping,
        _deps: dependencyIds(root, own),
        _json: servedBytes(contentJson),
        _item: servedBytes(JSON.stringify(listItemOf(root, own))),
      },
    };
  }
  // The content's JSON, already serialized. An organization's is its record as its services nest it (its
  // endpoint joins its services when read): no ETag of its own.
  const _json = servedBytes(contentJson);
  const whole = storesWholeRecord(root) ? { _json, _etag: entityTag(_json) } : { _json };
  const _item = servedBytes(JSON.stringify(listItemOf(root, document)));
  return { stored: { ...document, ...bookkeeping, _deps: dependencyIds(root, document), ...whole, _item } };
}

const NONE: ReadonlyMap<string, string> = new Map();

/**
 * Organizations first, whose served form their services splice in when read (a service written before
 * its organization would be served without it meanwhile); then services, whose fresh documents give
 * their services at location theirs.
 */
const MATERIALIZED_ORDER: readonly RootEntity[] = [
  'organization',
  'service',
  'service_at_location',
  ...rootEntities.filter((root) => !['organization', 'service', 'service_at_location'].includes(root)),
];

/**
 * The change feed's entries for one chunk of roots: each record whose served form changed or went, and
 * the organizations services joined or left (their `services` list its ids), recorded with the services'
 * documents, so that a rerun that finds those written still has them listed. An organization not yet
 * stored is left to its own pass, which lists it as new once written.
 */
class FeedChanges {
  private readonly changes: Change[] = [];
  private readonly organizations = new Set<string>();
  /** Records stored for the first time: the feed has no earlier entry of theirs to drop but a deletion's. */
  private readonly firstStored = new Set<string>();
  private readonly resource: string;

  constructor(private readonly root: RootEntity) {
    this.resource = documentCollection[root];
  }

  upserted(id: string, document: Json, before: Json | undefined): void {
    this.changes.push({ resource: this.resource, id, op: 'upsert' });
    if (!before) this.firstStored.add(id);
    const organization = organizationIdOf(document);
    const was = before && organizationIdOf(before);
    if (organization !== was) {
      this.organizationChanged(was);
      this.organizationChanged(organization);
    }
  }

  deleted(id: string, before: Json): void {
    this.changes.push({ resource: this.resource, id, op: 'delete' });
    this.organizationChanged(organizationIdOf(before));
  }

  /** Documents composed and not stored (too large): no longer served, whatever was before. */
  leftOut(documents: Json[]): this {
    for (const document of documents) this.deleted(document.id as string, document);
    return this;
  }

  async entries(db: Db): Promise<Change[]> {
    if (this.organizations.size === 0) return this.changes;
    const stored = await db
      .collection(documentCollection.organization)
      .find({ id: { $in: [...this.organizations] } }, { projection: { _id: 0, id: 1 } })
      .toArray();
    const upserts = stored.map(({ id }) => ({
      resource: documentCollection.organization,
      id,
      op: 'upsert' as const,
    }));
    return [...this.changes, ...upserts];
  }

  /**
   * The entries whose records may have earlier ones, to drop once these are published: not those first
   * stored now (a bulk load of new records has nothing to compact), which leaves a record deleted and
   * loaded again listed twice, deleted then upserted, until its deletion's retention ends.
   */
  compactable(entries: Change[]): Change[] {
    return entries.filter((entry) => entry.resource !== this.resource || !this.firstStored.has(entry.id));
  }

  private organizationChanged(id: string | undefined): void {
    if (this.root === 'service' && id !== undefined) this.organizations.add(id);
  }
}

const organizationIdOf = (document: Json): string | undefined => {
  const id = (document.organization as Json | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
};

function withoutService(pairing: Json): Json {
  const { service: _service, ...own } = pairing;
  return own;
}
