import type { Db } from 'mongodb';
import { SOURCE_LOADS } from '../db/collections.ts';
import type { SourceLoad, StoredSource } from '../db/source-records.ts';
import type { ImportReport } from './report.ts';

const sources = (db: Db) => db.collection<StoredSource>(SOURCE_LOADS);

/**
 * Records that a load for `source` started, before any of its records is written: a source whose loads
 * never finished is listed too, with what it wrote.
 */
export async function sourceLoadStarted(db: Db, source: string, at: string): Promise<void> {
  await sources(db).updateOne(
    { _id: source },
    { $set: { name: source, last_started_at: at }, $setOnInsert: { first_started_at: at } },
    { upsert: true },
  );
}

/** Records a load for `source` that finished, with its counts. */
export async function sourceLoaded(
  db: Db,
  source: string,
  { startedAt, finishedAt, report }: { startedAt: string; finishedAt: string; report: ImportReport },
): Promise<void> {
  const { inserted, updated, unchanged, rejected, replace } = report;
  const deleted =
    replace && replace.refused === undefined
      ? Object.values(replace.deleted).reduce((sum, count) => sum + count, 0)
      : 0;
  const load: SourceLoad = {
    started_at: startedAt,
    finished_at: finishedAt,
    mode: replace ? 'replace' : 'merge',
    inserted,
    updated,
    unchanged,
    rejected,
    deleted,
  };
  await sources(db).updateOne({ _id: source }, { $set: { last_load: load } });
}
