/**
 * `npm run import -- <paths...> [--source NAME] [--replace [--force]] [--type T] [--dry-run] [--batch-size N] [--workers W]`
 *
 * Imports HSDS data into MONGODB_URI, or else into the embedded database (shared if a server already runs
 * it, started for the duration otherwise). Paths: JSON files (a record or an array), NDJSON/JSON Lines
 * files (`-` for standard input), or tabular-form folders with a datapackage.json. Exit status: 0 when
 * every record loaded, 1 when any was rejected, 2 when the import could not run.
 *
 * A database out of reach for a while (the server running the embedded database stopped, and this
 * process or another takes it over; a failover) is waited out, for up to HSDS_IMPORT_OUTAGE_MS.
 */
import { parseArgs } from 'node:util';
import { importRecords, replaceUnder } from '../src/ingest/import.ts';
import { recordTypes, type RecordType } from '../src/ingest/record-type.ts';
import { readInputPath } from '../src/ingest/sources/input-path.ts';
import { failureMessage } from '../src/failure-message.ts';
import { MAX_IMPORT_WORKERS } from '../src/config.ts';
import { withDatabase } from './cli/database.ts';
import { loggedOutageRetry } from './cli/outages.ts';
import { sourceOptionsProblem } from './cli/source-options.ts';
import { withProgress } from './cli/progress.ts';
import { printReport } from './cli/report.ts';

const USAGE = `usage: npm run import -- <path...> [--source NAME] [--replace [--force]] [--type ${recordTypes.join('|')}] [--dry-run] [--batch-size N] [--workers W]`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      type: { type: 'string' },
      source: { type: 'string' },
      replace: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      'batch-size': { type: 'string' },
      workers: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || positionals.length === 0) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.type !== undefined && !recordTypes.includes(values.type as RecordType)) {
    console.error(`--type must be one of ${recordTypes.join(', ')}\n${USAGE}`);
    return 2;
  }
  const sourceProblem = sourceOptionsProblem(values);
  if (sourceProblem !== undefined) {
    console.error(`${sourceProblem}\n${USAGE}`);
    return 2;
  }
  const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
    console.error(`--batch-size must be a positive integer\n${USAGE}`);
    return 2;
  }
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  // Digits only: Number('') would read an empty value as 0.
  if (workers !== undefined && !(/^\d+$/.test(values.workers!) && workers <= MAX_IMPORT_WORKERS)) {
    console.error(`--workers must be an integer from 0 to ${MAX_IMPORT_WORKERS}\n${USAGE}`);
    return 2;
  }

  // A step that fails for the database being out of reach is retried for HSDS_IMPORT_OUTAGE_MS, then the
  // CLI stops (exit 2, what it wrote kept for a rerun to complete): a takeover takes a few seconds.
  return withDatabase(async (db, logger, config) => {
    const { importOutageMs, importWorkers } = config;
    const report = await withProgress('importing', 'records read', (onProgress) =>
      importRecords(db, inputs(positionals), {
        dryRun: values['dry-run'],
        type: values.type as RecordType | undefined,
        source: values.source,
        ...(values.replace ? replaceUnder(config, values.force) : {}),
        batchSize,
        workers: workers ?? importWorkers,
        onProgress,
        outages: loggedOutageRetry(logger, importOutageMs),
      }),
    );
    printReport(report);
    return report.rejected > 0 || report.replace?.refused !== undefined ? 1 : 0;
  });
}

async function* inputs(paths: string[]) {
  for (const path of paths) yield* readInputPath(path);
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(failureMessage(error));
  process.exitCode = 2;
}
