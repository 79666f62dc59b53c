import { documentCollection } from '../db/collections.ts';
import type { MaterializeResult } from './materialize.ts';
import type { Rejection } from './validate.ts';
import type { ReplaceOutcome } from './replace.ts';
import { escapeControls } from '../control-characters.ts';

export type Outcome = 'inserted' | 'updated' | 'unchanged' | 'rejected';

/**
 * What an import did. Counts are exact; the lists of rejections and warnings keep the first
 * `DETAIL_LIMIT` entries so a huge bad input cannot exhaust memory (the counts say how many there were).
 */
export interface ImportReport {
  dryRun: boolean;
  /** The source the records were loaded for (source-name.ts). */
  source: string;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** Counts by record type (or, for tabular rows, by entity type). */
  byType: Record<string, Record<Outcome, number>>;
  rejections: Rejection[];
  warnings: string[];
  warningCount: number;
  /** A replace's deletions (or, in a dry run, what it would delete), or why it deleted nothing. */
  replace?: ReplaceOutcome;
  /** Nested documents (re)built, by collection. */
  documentsWritten: Record<string, number>;
  durationMs: number;
}

export const DETAIL_LIMIT = 1000;

export function emptyReport(dryRun: boolean, source: string): ImportReport {
  return {
    dryRun,
    source,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    byType: {},
    rejections: [],
    warnings: [],
    warningCount: 0,
    documentsWritten: {},
    durationMs: 0,
  };
}

/**
 * Counts a record first counted `from` as `to` instead: a record counted unchanged whose served record the
 * import's other records changed (a row of the tabular form relinked to it) is counted updated.
 */
export function recountOutcome(report: ImportReport, from: Outcome, to: Outcome, type: string): void {
  report[from] -= 1;
  report[to] += 1;
  const counts = report.byType[type]!;
  counts[from] -= 1;
  counts[to] += 1;
}

export function countOutcome(report: ImportReport, outcome: Outcome, type?: string): void {
  report[outcome] += 1;
  if (type === undefined) return;
  const counts = (report.byType[type] ??= { inserted: 0, updated: 0, unchanged: 0, rejected: 0 });
  counts[outcome] += 1;
}

export function addRejections(report: ImportReport, rejections: Rejection[]): void {
  const kept = rejections.slice(0, Math.max(0, DETAIL_LIMIT - report.rejections.length));
  report.rejections.push(
    ...kept.map(({ at, path, message }) => ({
      at: escapeControls(at),
      ...(path === undefined ? {} : { path: escapeControls(path) }),
      message: escapeControls(message),
    })),
  );
}

export function addWarnings(
  report: Pick<ImportReport, 'warnings' | 'warningCount'>,
  warnings: string[],
): void {
  report.warningCount += warnings.length;
  const kept = warnings.slice(0, Math.max(0, DETAIL_LIMIT - report.warnings.length));
  report.warnings.push(...kept.map(escapeControls));
}

/** Adds what rebuilding documents did: the documents written, by collection, and its warnings. */
export function addRebuilt(
  report: Pick<ImportReport, 'documentsWritten' | 'warnings' | 'warningCount'>,
  { written, warnings }: MaterializeResult,
): void {
  addWarnings(report, warnings);
  for (const [root, count] of written) {
    const collection = documentCollection[root];
    report.documentsWritten[collection] = (report.documentsWritten[collection] ?? 0) + count;
  }
}
