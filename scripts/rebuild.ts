/**
 * `npm run rebuild`
 *
 * Rebuilds every nested document the API serves from the normalized rows (see src/ingest/rebuild-all.ts),
 * in MONGODB_URI, or else in the embedded database (shared if a server already runs it). For after an
 * upgrade that changes what is derived from the data (search words, geometry, served forms), or to mend
 * documents damaged or left stale, and to remove those whose row was deleted by hand. Imports wait while it
 * runs. Exit status: 0 when done, 2 when it could not run (run it again: it completes what a stopped
 * rebuild left).
 */
import { parseArgs } from 'node:util';
import { failureMessage } from '../src/failure-message.ts';
import { rebuildAllDocuments } from '../src/ingest/rebuild-all.ts';
import { withDatabase } from './cli/database.ts';
import { withProgress } from './cli/progress.ts';
import { printWarnings } from './cli/warnings.ts';

const USAGE = 'usage: npm run rebuild';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help) {
    console.error(USAGE);
    return 0;
  }
  return withDatabase(async (db) => {
    const report = await withProgress('rebuilding', 'records', (onProgress) =>
      rebuildAllDocuments(db, { onProgress }),
    );
    const written = Object.entries(report.documentsWritten).map(([name, count]) => `${count} ${name}`);
    console.log(`Rebuilt ${written.join(', ') || 'no documents'} (${report.durationMs} ms)`);
    printWarnings(report);
    return 0;
  });
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(failureMessage(error));
  process.exitCode = 2;
}
