import type { ImportReport } from '../../src/ingest/report.ts';
import type { ReplaceOutcome } from '../../src/ingest/replace.ts';
import { printWarnings } from './warnings.ts';

/** Prints an import's report: its counts, rejections, replace and warnings. */
export function printReport(report: ImportReport): void {
  const verb = report.dryRun ? 'would be ' : '';
  console.log(
    `${report.dryRun ? 'Dry run: ' : ''}${report.inserted} ${verb}inserted, ${report.updated} ${verb}updated, ` +
      `${report.unchanged} unchanged, ${report.rejected} rejected, ${report.warningCount} warnings ` +
      `(${report.durationMs} ms), source ${report.source}`,
  );
  for (const [type, counts] of Object.entries(report.byType)) {
    console.log(
      `  ${type}: ${Object.entries(counts)
        .map(([outcome, n]) => `${n} ${outcome}`)
        .join(', ')}`,
    );
  }
  for (const rejection of report.rejections) {
    console.log(
      `rejected: ${rejection.at}${rejection.path ? ` ${rejection.path}` : ''}: ${rejection.message}`,
    );
  }
  if (report.rejected > report.rejections.length) {
    console.log(`… and ${report.rejected - report.rejections.length} more rejections`);
  }
  if (report.replace) printReplace(report.replace, report);
  printWarnings(report);
}

function printReplace(replace: ReplaceOutcome, { dryRun, source }: ImportReport): void {
  const deleted = Object.entries(replace.deleted);
  const total = deleted.reduce((sum, [, count]) => sum + count, 0);
  const verb = replace.refused !== undefined ? 'not deleted' : dryRun ? 'would be deleted' : 'deleted';
  console.log(
    `replace: the input lacked ${replace.missing} of the ${replace.had} records source ${source} had; ` +
      `${total} ${verb}${deleted.length > 0 ? ` (${deleted.map(([type, n]) => `${n} ${type}`).join(', ')})` : ''}, ` +
      `${replace.released} kept for other sources or records`,
  );
  if (replace.refused !== undefined) console.log(`replace refused: ${replace.refused}`);
}
