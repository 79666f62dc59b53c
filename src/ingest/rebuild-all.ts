import type { Db } from 'mongodb';
import { chunked, mapped } from '../async-iterables.ts';
import { documentCollection } from '../db/collections.ts';
import { rootEntities, type RootEntity } from '../hsds/entities.ts';
import { rowCollection } from '../db/collections.ts';
import { withImportLease } from './import-lease.ts';
import { materialize } from './materialize.ts';
import { addRebuilt, type ImportReport } from './report.ts';
import type { RowChanges } from './row-writer.ts';
import { markDirectoryChanged } from '../db/directory-generation.ts';
import { markDerivation } from '../db/derivation-mark.ts';

/** Roots rebuilt together: one composition and one bulk write per kind of document. */
const CHUNK = 500;

/** What a rebuild did: documents written by collection (every one, but those left out with a warning). */
export type RebuildReport = Pick<
  ImportReport,
  'documentsWritten' | 'warnings' | 'warningCount' | 'durationMs'
>;

export interface RebuildOptions {
  /** Called after each chunk with the number of roots rebuilt so far. */
  onProgress?: (rebuilt: number) => void;
  /** The clock for `last_modified` of documents whose content changed (tests pin it). */
  now?: () => string;
}

/**
 * Rebuilds every nested document from the rows, which are the source of truth: each is composed
 * again and rewritten with what is derived from it (search words, geometry, served forms), so documents
 * damaged, lost or left stale (having missed a change to their rows) are mended, and documents written by
 * an earlier version get what this one derives. One whose content is unchanged keeps its `last_modified`;
 * one whose content changed gets the time of this rebuild, as an import would have given it, and one that
 * was missing comes back as its first import made it; a document whose row is gone (deleted by hand: the
 * app never deletes rows) is removed, as nothing it serves is in the source of truth. It holds the
 * import lease throughout (imports wait), writes no rows, and can be run again at any time: a rebuild
 * stopped part-way is completed by running it again.
 */
export async function rebuildAllDocuments(db: Db, options: RebuildOptions = {}): Promise<RebuildReport> {
  const started = performance.now();
  const now = options.now ?? (() => new Date().toISOString());
  const report: RebuildReport = { documentsWritten: {}, warnings: [], warningCount: 0, durationMs: 0 };
  await withImportLease(db, async (lease) => {
    const beforeWrite = () => lease.confirm();
    let rebuilt = 0;
    // Services before services at location, which are taken from them (rootEntities' order).
    for (const root of rootEntities) {
      // Every row's document, then every document without a row (materializing it removes it).
      for (const chunks of [rowIdChunks(db, root), rowlessDocumentIdChunks(db, root)]) {
        for await (const ids of chunks) {
          const result = await materialize(db, rootsChanged(root, ids), {
            now,
            refresh: true,
            beforeWrite,
            rootsOnly: true,
          });
          // Each chunk served at once; one stopped part-way is marked when the rebuild is run again.
          if ([...result.written.values()].some((count) => count > 0)) await markDirectoryChanged(db);
          addRebuilt(report, result);
          rebuilt += ids.length;
          options.onProgress?.(rebuilt);
        }
      }
    }
    // Every document is now derived as this release derives it (marked while the lease is still ours).
    await beforeWrite();
    await markDerivation(db);
  });
  report.durationMs = Math.round(performance.now() - started);
  return report;
}

/** The ids of every row of a root entity, in chunks of CHUNK. */
function rowIdChunks(db: Db, root: RootEntity): AsyncGenerator<string[]> {
  const ids = db.collection<{ _id: string }>(rowCollection(root)).find({}, { projection: { _id: 1 } });
  return chunked(
    mapped(ids, (row) => row._id),
    CHUNK,
  );
}

/** The ids of a root entity's documents that have no row, in chunks of at most CHUNK. */
async function* rowlessDocumentIdChunks(db: Db, root: RootEntity): AsyncGenerator<string[]> {
  const documents = db
    .collection<{ id: string }>(documentCollection[root])
    .find({}, { projection: { _id: 0, id: 1 } });
  for await (const ids of chunked(
    mapped(documents, (document) => document.id),
    CHUNK,
  )) {
    const rows = await db
      .collection<{ _id: string }>(rowCollection(root))
      .find({ _id: { $in: ids } }, { projection: { _id: 1 } })
      .toArray();
    const found = new Set(rows.map((row) => row._id));
    const rowless = ids.filter((id) => !found.has(id));
    if (rowless.length > 0) yield rowless;
  }
}

/** Changes naming only these roots: they and nothing else are rebuilt. */
const rootsChanged = (root: RootEntity, ids: string[]): RowChanges => ({
  touchedIds: new Set(),
  changedRows: new Set(),
  newRows: new Set(),
  changedRoots: new Map([[root, new Set(ids)]]),
  givenLastModified: new Set(),
});
