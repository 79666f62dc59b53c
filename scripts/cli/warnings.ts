import type { ImportReport } from '../../src/ingest/report.ts';

/** Prints a report's warnings, a line each, and how many more there were than it kept. */
export function printWarnings({
  warnings,
  warningCount,
}: Pick<ImportReport, 'warnings' | 'warningCount'>): void {
  for (const warning of warnings) console.log(`warning: ${warning}`);
  if (warningCount > warnings.length) console.log(`… and ${warningCount - warnings.length} more warnings`);
}
