import { documentCollection } from '../db/collections.ts';
import type { MaterializeResult } from './materialize.ts';
import type { Rejection } from './validate.ts';

export type Outcome = 'inserted' | 'updated' | 'unchanged' | 'rejected';

/**
 * What an import did. Counts are exact; the lists of rejections and warnings keep the first
 * `DETAIL_LIMIT` entries so a huge bad input cannot exhaust memory (the counts say how many there were).
 */
export interface ImportReport {
  dryRun: boolean;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** Counts by record type (or, for tabular rows, by entity type). */
  byType: Record<string, Record<Outcome, number>>;
  rejections: Rejection[];
  warnings: string[];
  warningCount: number;
  /** Nested documents (re)built, by collection. */
  documentsWritten: Record<string, number>;
  durationMs: number;
}

export const DETAIL_LIMIT = 1000;

export function emptyReport(dryRun: boolean): ImportReport {
  return {
    dryRun,
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

export function countOutcome(report: ImportReport, outcome: Outcome, type?: string): void {
  report[outcome] += 1;
  if (type === undefined) return;
  const counts = (report.byType[type] ??= { inserted: 0, updated: 0, unchanged: 0, rejected: 0 });
  counts[outcome] += 1;
}

export function addRejections(report: ImportReport, rejections: Rejection[]): void {
  report.rejections.push(...rejections.slice(0, Math.max(0, DETAIL_LIMIT - report.rejections.length)));
}

export function addWarnings(
  report: Pick<ImportReport, 'warnings' | 'warningCount'>,
  warnings: string[],
): void {
  report.warningCount += warnings.length;
  report.warnings.push(...warnings.slice(0, Math.max(0, DETAIL_LIMIT - report.warnings.length)));
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
