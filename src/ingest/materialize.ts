import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import { documentCollection } from '../db/collections.ts';
import { bulkWriteWithRemedies, replaceDuplicate, replacing } from './bulk-writes.ts';
import { leavingOutOversized } from './oversized-documents.ts';
import { leavingOutUnindexableGeo } from './unindexable-geo.ts';
import { composeRoots } from './compose.ts';
import { RowSource, type BatchRows } from './row-source.ts';
import { deriveFields } from './derived-fields.ts';
import { composeServiceAtLocations } from './service-at-location-documents.ts';
import { relations, rootEntities, type RootEntity } from '../hsds/entities.ts';
import { servedBytes, storesWholeRecord } from '../db/served-bytes.ts';
import { listItemOf } from '../db/served-shapes.ts';
import { entityTag } from '../http/entity-tag.ts';
import { documentHash } from './row.ts';
import type { RowChanges } from './row-writer.ts';
import type { Json } from '../json.ts';

export interface MaterializeResult {
  /** Documents written, by root entity. */
  written: Map<RootEntity, number>;
  warnings: string[];
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
}

/**
 * Rebuilds every nested document the row changes reach, and only those: the roots whose own row changed,
 * and every document that embeds a touched entity (found through its `_deps` list of embedded ids).
 * Services go first: services at location are taken from their fresh documents (with the final
 * `last_modified`).
 */
export async function materialize(
  db: Db,
  changes: RowChanges,
  { now, batch, refresh = false, beforeWrite }: MaterializeOptions,
): Promise<MaterializeResult> {
  const result: MaterializeResult = { written: new Map(), warnings: [] };
  const touched = [...changes.touchedIds];
  const source = await RowSource.open(db, batch);
  // Services written here, as served: their services at location are taken from them without a read (up
  // to MAX_FRESH_SERVICES of them; the others are read back).
  const services = new Map<string, Json>();
  for (const root of rootEntities) {
    const collection = db.collection(documentCollection[root]);
    const ids = new Set(changes.changedRoots.get(root) ?? []);
    if (touched.length > 0) {
      for await (const { id } of collection.find(
        { _deps: { $in: touched } },
        { projection: { _id: 0, id: 1 } },
      )) {
        ids.add(id as string);
      }
    }
    const all = [...ids];
    for (let start = 0; start < all.length; start += CHUNK) {
      const chunk = all.slice(start, start + CHUNK);
      const written = await rebuild(
        db,
        root,
        chunk,
        { source, services, changes, now, refresh, beforeWrite },
        result.warnings,
      );
      result.written.set(root, (result.written.get(root) ?? 0) + written);
    }
  }
  return result;
}

/** What rebuilding a chunk of roots reads from and reports to. */
interface Rebuild extends Omit<MaterializeOptions, 'batch'> {
  source: RowSource;
  services: Map<string, Json>;
  changes: RowChanges;
}

async function rebuild(
  db: Db,
  root: RootEntity,
  ids: string[],
  { source, services, changes, now, refresh, beforeWrite }: Rebuild,
  warnings: string[],
): Promise<number> {
  const collection = db.collection(documentCollection[root]);
  const composed =
    root === 'service_at_location'
      ? await composeServiceAtLocations(db, source, ids, services)
      : await composeRoots(source, root, ids);
  const stored = new Map<string, Json>();
  for await (const document of collection.find(
    { id: { $in: ids } },
    { projection: { _id: 0, id: 1, _hash: 1, last_modified: 1, _changed: 1 } },
  )) {
    stored.set(document.id as string, document);
  }

  const operations: AnyBulkWriteOperation[] = [];
  for (const id of ids) {
    const document = composed.get(id);
    if (!document) {
      operations.push({ deleteOne: { filter: { id } } });
      continue;
    }
    const { last_modified: lastModified, ...content } = document;
    const contentJson = JSON.stringify(content);
    const hash = documentHash(contentJson);
    const before = stored.get(id);
    // The publisher's last_modified, when the imported data gives one for the service: kept as given, even
    // when it is all that changed. A refresh that finds the document gone makes it as its first import did.
    const given =
      root === 'service' &&
      typeof lastModified === 'string' &&
      (changes.givenLastModified.has(id) || (refresh && !before));
    const unchanged = before?._hash === hash && !(given && before.last_modified !== lastModified);
    if (unchanged && !refresh) continue;
    // Otherwise a service's last_modified is the time its document changed.
    if (root === 'service')
      document.last_modified = unchanged ? before.last_modified : given ? lastModified : now();
    const { fields, warnings: found } = deriveFields(root, document);
    warnings.push(...found);
    const full: Document = {
      ...document,
      ...fields,
      _deps: embeddedIds(document),
      _hash: hash,
      // When what is served last changed (Last-Modified of records without a last_modified of their own).
      _changed: unchanged ? before._changed : new Date(now()),
      // Without a last_modified, the document's JSON is the content's, already serialized.
      ...servedForm(root, document, 'last_modified' in document ? undefined : contentJson),
    };
    if (root === 'service' && services.size < MAX_FRESH_SERVICES) services.set(id, document);
    operations.push(before ? replacing('id', full) : { insertOne: { document: full } });
  }
  if (operations.length === 0) return 0;
  await beforeWrite?.();
  await bulkWriteWithRemedies(
    collection,
    operations,
    replaceDuplicate('id'),
    leavingOutUnindexableGeo(warnings),
    leavingOutOversized(root, warnings),
  );
  return operations.length;
}

/**
 * The record exactly as `GET /{resource}/{id}` serves it, and as a list item, serialized once here rather
 * than on every read, with the record's strong ETag. Organizations have no stored whole form: their
 * `services` are joined when they are read.
 */
function servedForm(
  root: RootEntity,
  document: Json,
  documentJson?: string,
): { _json?: Buffer; _etag?: string; _item: Buffer } {
  const _item = servedBytes(JSON.stringify(listItemOf(root, document)));
  if (!storesWholeRecord(root)) return { _item };
  const json = servedBytes(documentJson ?? JSON.stringify(document));
  return { _json: json, _etag: entityTag(json), _item };
}

/** Fields by which a row refers to one other entity (`organization_id`, `location_id`, …). */
const referenceFields = new Set(
  Object.values(relations).flatMap((list) =>
    list.flatMap((relation) => (relation.kind === 'one' ? [relation.reference] : [])),
  ),
);

/**
 * Every id a document depends on: a change to any of those entities must rebuild it. That is every entity
 * inside it, and every entity it refers to, found or not: one loaded later (an organization imported after
 * its services) must reach the documents that were waiting for it.
 */
function embeddedIds(document: Json): string[] {
  const ids = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      for (const [key, field] of Object.entries(value)) {
        if (typeof field === 'string') {
          if (key === 'id' || referenceFields.has(key)) ids.add(field);
        } else walk(field);
      }
    }
  };
  walk(document);
  return [...ids];
}
