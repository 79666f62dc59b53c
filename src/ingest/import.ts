import type { Config } from '../config.ts';
import type { Db, ObjectId } from 'mongodb';
import pLimit from 'p-limit';
import { entityKey, isRootEntity } from '../hsds/entities.ts';
import { describeSource, type InputRecord } from './input-record.ts';
import { materialize, type MaterializeOptions } from './materialize.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { markDirectoryChanged } from '../db/directory-generation.ts';
import { retryUntilDone } from '../retry.ts';
import { usableCores } from '../usable-cores.ts';
import { clearPending, hasLeftPending, ImportPending, leftPending } from './pending.ts';
import type { RecordType } from './record-type.ts';
import {
  addRebuilt,
  addRejections,
  addWarnings,
  countOutcome,
  emptyReport,
  recountOutcome,
  type ImportReport,
} from './report.ts';
import { applyRowChanges, planRowChanges, type RowChanges, type RowPlan } from './row-writer.ts';
import {
  cleanRecords,
  fingerprintOf,
  stampInputs,
  unchangedCandidates,
  type Skipped,
} from './unchanged-records.ts';
import type { BatchRows } from './row-source.ts';
import { WorkBehind } from './work-behind.ts';
import { SOURCES, sourceRecordCounts } from '../db/source-records.ts';
import { DEFAULT_SOURCE } from './source-name.ts';
import { sourceLoaded, sourceLoadStarted } from './source-loads.ts';
import { SeenRecords } from './seen-records.ts';
import { purgeTombstones } from '../db/tombstones.ts';
import { purgeChanges } from '../db/change-feed.ts';
import { planReplace } from './replace-plan.ts';
import {
  DEFAULT_MAX_MISSING_SHARE,
  deleteRows,
  deletionChanges,
  deletionParts,
  outcomeOf,
  releaseRows,
  type ReplaceOutcome,
} from './replace.ts';
import { recordsGivenWhole } from './decompose.ts';
import { ValidationPool } from './validation-pool.ts';
import type { BatchEntry, BatchItem, CheckedEntry } from './batch-item.ts';
import { ImportLeaseLost, withImportLease, type ImportLease, type LeaseTimings } from './import-lease.ts';
import { markIfEmpty } from '../db/derivation-mark.ts';

export interface ImportOptions {
  /** Validate and report what would change, writing nothing. */
  dryRun?: boolean;
  /** Treat every record as this type instead of telling it from its shape. */
  type?: RecordType;
  /** Records validated, written and materialized together. */
  batchSize?: number;
  /** Called after each batch with the number of records read so far. */
  onProgress?: (recordsRead: number) => void;
  /** The clock for `last_modified` (tests pin it). */
  now?: () => string;
  /** How long the database's import lease lasts and how often it is renewed (tests shorten them). */
  leaseTimings?: LeaseTimings;
  /** Wait out a database out of reach, retrying what failed; unset: the import fails at once. */
  outages?: OutageRetry;
  /** Worker threads validating records (validation-pool.ts); 0: in the import's own thread. Default: `automaticWorkers`. */
  workers?: number;
  /** The source the records are loaded for (source-name.ts); `DEFAULT_SOURCE` unless given. */
  source?: string;
  /**
   * A full refresh of the source: once its records are loaded, what it had loaded and the input did not
   * contain is deleted (replace-plan.ts), within these safety rules.
   */
  replace?: ReplaceOptions;
}

/** A replacing import's options under the configured rules (HSDS_REPLACE_MAX_MISSING, HSDS_TOMBSTONE_DAYS). */
export const replaceUnder = (
  { replaceMaxMissingShare, tombstoneDays }: Pick<Config, 'replaceMaxMissingShare' | 'tombstoneDays'>,
  force: boolean,
): Pick<ImportOptions, 'replace'> => ({
  replace: { force, maxMissingShare: replaceMaxMissingShare, tombstoneDays },
});

export interface ReplaceOptions {
  /** Delete even when the input lacks more than `maxMissingShare` of the source's records. */
  force?: boolean;
  /** The share of the source's records (0 to 1) an input may lack before a replace stops unforced. */
  maxMissingShare?: number;
  /** Tombstones older than this many days are dropped by the replace (`HSDS_TOMBSTONE_DAYS`). */
  tombstoneDays?: number;
}

/**
 * How an import waits out a database out of reach (the embedded database taken over by another process
 * or started again, a failover): each step that fails for it runs again, until that step has failed for
 * `forMs`; then the import fails with the last error. Steps can run again: planning only reads; rows and
 * documents are written whole, a row inserted again replacing itself (`replaceDuplicate`); documents are
 * composed again from the rows; the lease is renewed again. A record of pending changes whose insert got
 * through unseen is recorded again: the first one is left for the next import, which finds its documents
 * rebuilt already.
 */
export interface OutageRetry {
  forMs: number;
  /** Told of each failure retried, with the wait before the next attempt. */
  onRetry(error: unknown, retryInMs: number): void;
}

const FIRST_RETRY_DELAY_MS = 250;
const MAX_RETRY_DELAY_MS = 2_000;

/**
 * Records validated, written and rebuilt together: 500 took ~10% less CPU per new service than 250 on
 * generated data (each batch's reads and commands are shared by more records), 1,000 or 2,000 no less, and
 * memory holds three batches at most (one rebuilt, one written, one checked ahead: see `flush`).
 */
const DEFAULT_BATCH = 500;
/**
 * A batch is also written once its records' text reaches this (NDJSON lines; 500 generated services take
 * ~4.4 MB), so that large records (up to the 32 MiB of a line) are held a few at a time.
 */
const MAX_BATCH_TEXT = 8 * 1024 * 1024;

/**
 * Worker threads validating records (validation-pool.ts) unless told: one where four cores or more are
 * usable. Validating is about a fifth of the import's own thread's work, and that thread is what limits an
 * import once the database has a core of its own, so one worker keeps ahead of it (inferred from the
 * thread's CPU with and without one: no machine of ours has four cores). With two, the worker takes turns
 * with the import and the embedded database, and an import measured slower with it (docs/performance.md).
 */
const automaticWorkers = () => (usableCores() >= 4 ? 1 : 0);

/**
 * The imports of this process (`POST /import`, the start-up seed, the CLI), one at a time, in order: two
 * imports rebuilding the same documents at once could each write what it composed before the other's
 * rows. Across processes, the import lease (import-lease.ts) keeps them one at a time too.
 */
const importsOfThisProcess = pLimit(1);

/**
 * Imports HSDS records: validates each, writes the rows that changed, then rebuilds every nested document
 * those changes reach. A bad record is rejected alone; the good ones around it load.
 * Importing the same data again changes nothing. Used by the CLI and the HTTP bulk-load endpoint alike;
 * an import starts (its records are read) once the imports of this process before it have finished.
 */
export function importRecords(
  db: Db,
  records: AsyncIterable<InputRecord>,
  options: ImportOptions = {},
): Promise<ImportReport> {
  return importsOfThisProcess(() => runImport(db, records, options));
}

async function runImport(
  db: Db,
  records: AsyncIterable<InputRecord>,
  options: ImportOptions,
): Promise<ImportReport> {
  // A dry run writes nothing, so it needs no turn among the database's imports.
  if (options.dryRun) return runLeased(db, records, options, undefined);
  // Waiting for the lease runs again whole, but not the import once it holds it: that would read its
  // records again. Its own steps run again instead.
  let holding = false;
  return retryingOutages(
    options.outages,
    () =>
      withImportLease(
        db,
        async (lease) => {
          // An import into a directory without documents derives them all as this release does: marked.
          await markIfEmpty(db);
          holding = true;
          return runLeased(db, records, options, lease);
        },
        options.leaseTimings,
      ),
    () => !holding,
  );
}

/**
 * Runs one step of an import, again while it fails for the database being out of reach (see OutageRetry)
 * and `retryable` says so; once without `outages`.
 */
async function retryingOutages<T>(
  outages: OutageRetry | undefined,
  step: () => Promise<T>,
  retryable: () => boolean = () => true,
): Promise<T> {
  if (!outages) return step();
  let failingSince: number | undefined;
  let attempt!: Promise<T>;
  await retryUntilDone(
    async () => {
      attempt = step();
      await attempt.catch((error: unknown) => {
        failingSince ??= Date.now();
        // Thrown to be retried; any other failure is given back below, from `attempt`.
        if (isDatabaseUnavailable(error) && retryable() && Date.now() - failingSince < outages.forMs)
          throw error;
      });
    },
    {
      firstDelayMs: FIRST_RETRY_DELAY_MS,
      maxDelayMs: MAX_RETRY_DELAY_MS,
      onFailure: outages.onRetry,
      // Waiting out the outage is all the import does then: with the driver's sockets closed, a wait that
      // did not hold the process let Node end it mid-import (exit 13, a top-level await never settled).
      holdProcess: true,
    },
  );
  return attempt;
}

/** Runs the import under its lease, none for a dry run (which writes nothing). */
async function runLeased(
  db: Db,
  records: AsyncIterable<InputRecord>,
  options: ImportOptions,
  lease: ImportLease | undefined,
): Promise<ImportReport> {
  const started = performance.now();
  const now = options.now ?? (() => new Date().toISOString());
  const source = options.source ?? DEFAULT_SOURCE;
  const report = emptyReport(options.dryRun ?? false, source);
  const startedAt = now();
  if (lease) await retryingOutages(options.outages, () => sourceLoadStarted(db, source, startedAt));
  let notices = 0;
  const unreadLists = new Set<RecordType>();
  const { outages } = options;
  // Skipping records given again unchanged relies on documents being up to date with the rows: not when
  // changes left pending could not be applied (nor, in a dry run, which applies none, when any are left).
  const settled = lease
    ? await retryingOutages(outages, () => finishLeftPending(db, lease, now, report))
    : !(await hasLeftPending(db));
  // After what was left pending (a stopped replace's deletions among it), before the load adds anything:
  // the share a replace may find missing is of what the source had.
  const seen = options.replace ? await retryingOutages(outages, () => SeenRecords.start(db)) : undefined;
  const sourceHad = seen
    ? await retryingOutages(outages, async () =>
        [...(await sourceRecordCounts(db, source)).values()].reduce((sum, count) => sum + count, 0),
      )
    : undefined;

  let batch: BatchEntry[] = [];
  let batchText = 0;
  let read = 0;
  // Each batch's documents are rebuilt while the next batch's rows are written and the one after it is
  // checked (`flush`); rebuilds run one at a time and in batch order, so a later batch's rebuild sees (and
  // redoes) whatever an earlier one composed before the later rows were written.
  const rebuilds = new WorkBehind();
  const pending = new ImportPending(db, source);
  // What the batches written but not yet rebuilt change: their documents are not up to date yet.
  const unsettled = new Set<ReadonlySet<string>>();
  const isUnsettled = (id: string) => [...unsettled].some((touched) => touched.has(id));
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  let validation: ValidationPool | undefined;
  // Settles once the rebuild before the last one queued has finished: the next batch is written after it.
  let rebuiltBehind: Promise<void> = Promise.resolve();
  // Whether the next batch is checked ahead: the last one written had records to apply rather than to
  // skip as unchanged (a load of new or changed records, not a reload of the same).
  let checkAhead = false;
  const flush = async (last: boolean) => {
    if (batch.length > 0) {
      // Workers start with a full batch: an input smaller than one is not worth their start.
      validation ??= new ValidationPool(last ? 0 : (options.workers ?? automaticWorkers()), (reason) =>
        addWarnings(report, [reason]),
      );
      // While the database writes the documents of the batch before last, this batch's records are
      // checked (which reads nothing) when they are likely to apply: otherwise the database's answer to
      // which are unchanged comes first, and only the others are checked (writeBatch).
      const checked = checkAhead ? await checkedEntries(validation, batch, options.type) : undefined;
      await rebuiltBehind;
      const { written, skippedShare } = await writeBatch(db, lease, pending, batch, report, {
        validation,
        checked,
        outages,
        type: options.type,
        skipUnchanged: settled,
        isUnsettled,
        source,
        seen,
      });
      checkAhead = skippedShare < MOSTLY_UNCHANGED;
      if (written) {
        const touched = written.rows?.changes.touchedIds ?? new Set<string>();
        unsettled.add(touched);
        rebuiltBehind = rebuilds.add(() =>
          retryingOutages(outages, () => rebuildBatch(db, pending, written, now, report)).finally(() =>
            unsettled.delete(touched),
          ),
        );
        // Its failure is thrown where it is awaited (the next batch, or the end), not as an unhandled one.
        rebuiltBehind.catch(() => {});
      }
    }
    batch = [];
    batchText = 0;
    options.onProgress?.(read);
  };
  try {
    for await (const input of records) {
      if (input.unreadList !== undefined) {
        unreadLists.add(input.unreadList);
        continue;
      }
      if (input.remark !== undefined) {
        addWarnings(report, [`${describeSource(input.source)}: ${input.remark}`]);
        continue;
      }
      if (input.notice !== undefined) {
        notices += 1;
        addWarnings(report, [`${describeSource(input.source)}: ${input.notice}`]);
        continue;
      }
      read += 1;
      batch.push({ input, fingerprint: fingerprintOf(input, options.type, source) });
      batchText += input.text?.length ?? 0;
      if (batch.length >= batchSize || batchText >= MAX_BATCH_TEXT) await flush(false);
    }
    await flush(true);
    await rebuilds.drain();
    if (seen) {
      const doubt = !settled
        ? 'changes an earlier import left pending could not be applied'
        : notices > 0
          ? `${notices} part(s) of the input were left unread (see the warnings)`
          : undefined;
      report.replace = await replaceMissing(
        db,
        { lease, pending, seen, source, report, now, outages, had: sourceHad!, doubt, unreadLists },
        options.replace!,
      );
    }
    if (lease)
      await retryingOutages(options.outages, () =>
        sourceLoaded(db, source, { startedAt, finishedAt: now(), report }),
      );
  } finally {
    await rebuilds.settle();
    await validation?.close();
    await seen?.drop();
    pending.release();
  }
  report.durationMs = Math.round(performance.now() - started);
  return report;
}

/** A batch written: its documents not yet rebuilt, nor its fingerprints kept. */
interface WrittenBatch {
  /** The lease it was written under, confirmed again before each write of its documents. */
  lease: ImportLease;
  /** The rows that changed, written and recorded as pending; none when nothing changed. */
  rows?: { pending: ObjectId; changes: RowChanges; rows: BatchRows };
  /** Fingerprints of the service records that compose their documents alone (unchanged-records.ts). */
  fingerprints: Map<string, string>;
  /** Records counted unchanged, by the `entity:id` of their root, with the type they were counted as. */
  countedUnchanged: Map<string, string>;
}

/**
 * Above this share of a batch's records skipped as unchanged, the next batch's records are checked only
 * once the database has said which of them are unchanged (see `flush`).
 */
const MOSTLY_UNCHANGED = 0.5;

/** Each entry's check (validation-pool.ts), by entry. */
type CheckedEntries = Map<BatchEntry, CheckedEntry>;

async function checkedEntries(
  validation: ValidationPool,
  entries: BatchEntry[],
  type: RecordType | undefined,
): Promise<CheckedEntries> {
  const checked = await validation.check(entries, type);
  return new Map(entries.map((entry, at) => [entry, checked[at]!]));
}

interface BatchOptions {
  validation: ValidationPool;
  /** The batch's entries checked already (before the database said which are unchanged). */
  checked: CheckedEntries | undefined;
  outages: OutageRetry | undefined;
  type: RecordType | undefined;
  /** Whether service records given again unchanged may be skipped. */
  skipUnchanged: boolean;
  /** Whether an id is changed by a batch whose documents are not rebuilt yet. */
  isUnsettled: (id: string) => boolean;
  /** The source the records are loaded for: their root rows name it. */
  source: string;
  /** Where a replacing load keeps the records it contained. */
  seen: SeenRecords | undefined;
}

/**
 * Validates a batch's records, counts each one's outcome and writes the rows that changed, recording them as
 * pending first. Service records given again unchanged are skipped (unchanged-records.ts), unless the
 * batch's changes reach their documents. Nothing to rebuild (`written` undefined) in a dry run (no lease)
 * or when nothing changed; `skippedShare` is the share of the records found unchanged. Each step after the
 * plan runs again as planned (`outages`): planned again after some rows were written, those would look
 * unchanged.
 */
async function writeBatch(
  db: Db,
  lease: ImportLease | undefined,
  pendingChanges: ImportPending,
  entries: BatchEntry[],
  report: ImportReport,
  { validation, checked, outages, type, skipUnchanged, isUnsettled, source, seen }: BatchOptions,
): Promise<{ written: WrittenBatch | undefined; skippedShare: number }> {
  const fingerprints = entries.flatMap(({ fingerprint }) => (fingerprint ? [fingerprint] : []));
  const skipped = skipUnchanged
    ? await retryingOutages(outages, () => unchangedCandidates(db, fingerprints, isUnsettled))
    : (new Map() as Skipped);
  // Of those found unchanged by the database, before any is applied after all (below).
  const skippedShare = skipped.size / entries.length;
  const checks = new Map(checked);
  const validated = new Map<BatchEntry, BatchItem | undefined>();
  const validate = async (applying: BatchEntry[]) => {
    const unvalidated = applying.filter((entry) => !validated.has(entry));
    const unchecked = unvalidated.filter((entry) => !checks.has(entry));
    for (const [entry, check] of await checkedEntries(validation, unchecked, type)) checks.set(entry, check);
    // Reported here, for the records that apply, in their order.
    for (const entry of unvalidated) validated.set(entry, reportedItem(checks.get(entry)!, report));
  };
  const applied = ({ fingerprint }: BatchEntry) => fingerprint === undefined || !skipped.has(fingerprint);
  let items: BatchItem[];
  let plan: RowPlan;
  for (;;) {
    const applying = entries.filter(applied);
    await validate(applying);
    items = applying.flatMap((entry) => validated.get(entry) ?? []);
    for (const item of items)
      for (const { row } of recordsGivenWhole(item.decomposition)) row[SOURCES] = [source];
    const batchItems = items;
    plan = await retryingOutages(outages, () =>
      planRowChanges(
        db,
        batchItems.map((item) => item.decomposition),
      ),
    );
    // A skipped record whose document the batch's changes reach applies after all, in its place.
    const { touchedIds } = plan.changes;
    const reached = [...skipped].filter(([, { deps }]) => deps.some((id) => touchedIds.has(id)));
    if (reached.length === 0) break;
    for (const [fingerprint] of reached) skipped.delete(fingerprint);
  }
  const { writes, changes, shrunkParents, rows } = plan;
  addWarnings(report, plan.warnings);
  // What the batch does to a record is counted once, for its first copy (a feed may repeat a record): the
  // rows are planned from all its copies together, so later ones change nothing more.
  const counted = new Set<string>();
  const countedUnchanged = new Map<string, string>();
  for (const entry of entries) {
    if (!applied(entry)) {
      countOutcome(report, 'unchanged', 'service');
      continue;
    }
    const item = validated.get(entry);
    if (!item) continue;
    const { type: itemType, decomposition } = item;
    const root = decomposition.rows[0]!;
    const rootKey = entityKey(root.entity, root.row.id);
    // Changed: one of its rows, or one of its lists (given in full) that lost an item.
    const changed = decomposition.rows.some(
      ({ entity, row }) => changes.changedRows.has(entityKey(entity, row.id)) || shrunkParents.has(row.id),
    );
    const outcome = counted.has(rootKey)
      ? 'unchanged'
      : changes.newRows.has(rootKey)
        ? 'inserted'
        : changed
          ? 'updated'
          : 'unchanged';
    // A record's first copy counted unchanged may yet have its served record changed by the batch.
    if (outcome === 'unchanged' && !counted.has(rootKey) && isRootEntity(root.entity))
      countedUnchanged.set(rootKey, itemType);
    counted.add(rootKey);
    countOutcome(report, outcome, itemType);
  }
  if (seen) {
    // What each record gives whole, those skipped as unchanged too: checked (neither planned nor written)
    // for the services at location they list, which a record of their own may have linked since.
    await validate(entries.filter((entry) => !applied(entry)));
    const contained = entries.flatMap((entry) => {
      const item = validated.get(entry);
      return item
        ? recordsGivenWhole(item.decomposition).map(({ entity, row }) => ({ entity, id: row.id }))
        : [];
    });
    await retryingOutages(outages, () => seen.add(contained));
  }
  if (!lease) return { written: undefined, skippedShare };
  const clean = cleanRecords(items.map((item) => item.decomposition));
  const kept = new Map(
    items.flatMap(({ candidate }, at) =>
      candidate && clean.has(at) ? [[candidate.id, candidate.fingerprint] as const] : [],
    ),
  );
  const unwritten = kept.size > 0 ? { lease, fingerprints: kept, countedUnchanged: new Map() } : undefined;
  if (writes.size === 0) return { written: unwritten, skippedShare };
  await retryingOutages(outages, () => lease.confirm());
  // Only rows' sources changed (records another source now loads too): nothing served changes.
  if (changes.changedRows.size === 0) {
    await retryingOutages(outages, () => applyRowChanges(db, writes, changes.newRows));
    return { written: unwritten, skippedShare };
  }
  const pending = await retryingOutages(outages, () => pendingChanges.record(changes));
  await retryingOutages(outages, () => applyRowChanges(db, writes, changes.newRows));
  return {
    written: { lease, rows: { pending, changes, rows }, fingerprints: kept, countedUnchanged },
    skippedShare,
  };
}

/** The item of a record checked; undefined, and reported, when it is rejected. */
function reportedItem(checked: CheckedEntry, report: ImportReport): BatchItem | undefined {
  if ('item' in checked) return checked.item;
  countOutcome(report, 'rejected', checked.rejected.type);
  addRejections(report, checked.rejected.rejections);
  return undefined;
}

/** Rebuilds a written batch's documents, clears its pending changes, and keeps its fingerprints. */
async function rebuildBatch(
  db: Db,
  pendingChanges: ImportPending,
  { lease, rows: written, fingerprints, countedUnchanged }: WrittenBatch,
  now: () => string,
  report: ImportReport,
): Promise<void> {
  let fingerprinted = new Set<string>();
  if (written) {
    const { pending, changes, rows } = written;
    const rebuilt = await rebuildDocuments(db, lease, changes, now, report, {
      batch: rows,
      fingerprints,
      source: report.source,
    });
    fingerprinted = rebuilt.fingerprinted;
    // Served records the batch changed though their own records changed nothing: updated after all.
    for (const [key, type] of countedUnchanged)
      if (rebuilt.changed.has(key)) recountOutcome(report, 'unchanged', 'updated', type);
    await pendingChanges.clear(pending);
  }
  // The documents the rebuild did not write (their records changed nothing) get theirs here.
  const unwritten = new Map([...fingerprints].filter(([id]) => !fingerprinted.has(id)));
  await stampInputs(db, unwritten, () => lease.confirm());
}

/**
 * Finishes what imports that did not finish left pending. One that fails again is reported and kept for the
 * next import, and this one goes on: a rebuild that cannot succeed must not stop every later import. Gives
 * whether everything pending was finished.
 */
async function finishLeftPending(
  db: Db,
  lease: ImportLease,
  now: () => string,
  report: ImportReport,
): Promise<boolean> {
  let finished = true;
  for await (const { id, changes, source, deletions } of leftPending(db)) {
    try {
      if (deletions) {
        await lease.confirm();
        await deleteRows(db, deletions, new Date(now()));
      }
      await rebuildDocuments(db, lease, changes, now, report, { source });
      await clearPending(db, id);
    } catch (error) {
      if (isDatabaseUnavailable(error) || error instanceof ImportLeaseLost) throw error;
      finished = false;
      addWarnings(report, [
        `changes left pending by an import that did not finish (${id.toHexString()}) could not be applied ` +
          `(${(error as Error).message}); they stay pending, tried again by the next import`,
      ]);
    }
  }
  return finished;
}

/**
 * Rebuilds the documents the changes reach, confirming the lease before each write, and marks the
 * directory changed before the changes are cleared as pending. Marked even when the rebuild wrote nothing:
 * a rerun (after an outage, or of changes an import left pending) finds unchanged the documents an earlier
 * attempt wrote, whose mark may have been lost; a failure leaves the changes pending for the import that
 * finishes them to mark.
 */
async function rebuildDocuments(
  db: Db,
  lease: ImportLease,
  changes: RowChanges,
  now: () => string,
  report: ImportReport,
  options: Pick<MaterializeOptions, 'batch' | 'fingerprints' | 'source'>,
) {
  const beforeWrite = () => lease.confirm();
  const result = await materialize(db, changes, { now, ...options, beforeWrite });
  await markDirectoryChanged(db);
  addRebuilt(report, result);
  return result;
}

/** What a replacing load works with, once its records are loaded. */
interface ReplaceContext {
  lease: ImportLease | undefined;
  pending: ImportPending;
  seen: SeenRecords;
  source: string;
  report: ImportReport;
  now: () => string;
  outages: OutageRetry | undefined;
  /** How many records the source had before the load. */
  had: number;
  /** Why the input cannot be trusted whole, though no record was rejected. */
  doubt: string | undefined;
  /** Types whose list the input did not give: none of theirs is deleted. */
  unreadLists: ReadonlySet<RecordType>;
}

/**
 * Deletes what the source had loaded and the input did not contain (replace-plan.ts), unless the input had
 * a rejected or unreadable record or was otherwise not read whole, changes left pending could not be
 * applied, or it lacks more than the allowed share of the source's records unforced; in a dry run (no
 * lease), only says what it would delete. Every part of the deletion is recorded pending before any row is
 * deleted, so that an import stopped part-way is finished by the next one; each step is retried alone
 * while the database is out of reach, as the batches' are.
 */
async function replaceMissing(
  db: Db,
  { lease, pending, seen, source, report, now, outages, had, doubt, unreadLists }: ReplaceContext,
  { force = false, maxMissingShare = DEFAULT_MAX_MISSING_SHARE, tombstoneDays }: ReplaceOptions,
): Promise<ReplaceOutcome> {
  const step = <T>(work: () => Promise<T>) => retryingOutages(outages, work);
  const plan = await step(() => planReplace(db, source, seen, unreadLists));
  const outcome = outcomeOf(plan, had);
  const refusal =
    report.rejected > 0
      ? `${report.rejected} record(s) of the input were rejected or could not be read: a replace deletes ` +
        'only after an input that loaded whole'
      : doubt !== undefined
        ? `${doubt}: a replace deletes only after an input that was read whole`
        : had > 0 && plan.missing / had > maxMissingShare && !force
          ? `the input lacks ${plan.missing} of the ${had} records source ${source} had, more than ` +
            `${Math.round(maxMissingShare * 100)}%: nothing deleted (force deletes them)`
          : undefined;
  if (refusal !== undefined)
    return { ...outcome, deleted: {}, wouldDelete: outcome.deleted, refused: refusal };
  if (!lease) return outcome;
  await step(() => lease.confirm());
  const parts = [];
  for (const part of deletionParts(plan.deletions)) {
    const changes = await step(() => deletionChanges(db, part));
    parts.push({ part, changes, id: await step(() => pending.record(changes, { rows: part, source })) });
  }
  if (tombstoneDays !== undefined) {
    await step(() => purgeTombstones(db, tombstoneDays));
    await step(() => purgeChanges(db, tombstoneDays));
  }
  await step(() => releaseRows(db, plan.released, source));
  for (const { part, changes, id } of parts) {
    await step(() => lease.confirm());
    await step(() => deleteRows(db, { rows: part, source }, new Date(now())));
    await step(() => rebuildDocuments(db, lease, changes, now, report, { source }));
    await step(() => pending.clear(id));
  }
  return outcome;
}
