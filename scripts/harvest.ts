/**
 * `npm run harvest -- <base-url> [--source NAME] [--full] [--replace [--force]] [--header 'Name: value']…
 * [--concurrency N] [--timeout-ms MS]`
 *
 * Pulls another HSDS 3.0 API into MONGODB_URI, or else into the embedded database, through the import:
 * the services changed since the source's last successful harvest (all of them with --full or --replace),
 * then the organizations, taxonomies and taxonomy terms the feed serves. Exit status: 0 when every record
 * loaded, 1 when any was rejected (or a replace refused), 2 when the feed could not be read (what was
 * loaded stays; running it again goes on) or the harvest could not run. Each run is recorded in the meta
 * log (`POST /harvest`), its headers by name only.
 */
import { parseArgs } from 'node:util';
import { failureMessage } from '../src/failure-message.ts';
import { harvest } from '../src/harvest/harvest.ts';
import { replaceUnder } from '../src/ingest/import.ts';
import { feedUrlProblem, headerProblem } from '../src/harvest/feed-url.ts';
import { recordedHarvest } from '../src/harvest/harvest-entries.ts';
import { withDatabase } from './cli/database.ts';
import { loggedOutageRetry } from './cli/outages.ts';
import { sourceOptionsProblem } from './cli/source-options.ts';
import { withProgress } from './cli/progress.ts';
import { printReport } from './cli/report.ts';

const USAGE =
  "usage: npm run harvest -- <base-url> [--source NAME] [--full] [--replace [--force]] [--header 'Name: value']… " +
  '[--concurrency N] [--timeout-ms MS]';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      source: { type: 'string' },
      full: { type: 'boolean', default: false },
      replace: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      header: { type: 'string', multiple: true, default: [] },
      concurrency: { type: 'string', default: '4' },
      'timeout-ms': { type: 'string', default: '30000' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || positionals.length !== 1) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const url = positionals[0]!;
  const problem = URL.canParse(url) ? feedUrlProblem(new URL(url)) : 'must be an http or https URL';
  if (problem !== undefined) {
    console.error(`<base-url> ${problem}\n${USAGE}`);
    return 2;
  }
  const sourceProblem = sourceOptionsProblem(values);
  if (sourceProblem !== undefined) {
    console.error(`${sourceProblem}\n${USAGE}`);
    return 2;
  }
  const headers: Record<string, string> = {};
  for (const [index, header] of values.header.entries()) {
    const colon = header.indexOf(':');
    const name = header.slice(0, Math.max(colon, 0));
    const value = header.slice(colon + 1).trimStart();
    const problem = colon < 0 ? 'no colon' : headerProblem(name, value);
    if (problem !== undefined) {
      // The value is not echoed: it may be a credential.
      console.error(`--header must be 'Name: value' (header ${index + 1}: ${problem})\n${USAGE}`);
      return 2;
    }
    headers[name] = value;
  }
  const concurrency = Number(values.concurrency);
  if (!/^\d+$/.test(values.concurrency) || concurrency < 1 || concurrency > 64) {
    console.error(`--concurrency must be an integer from 1 to 64\n${USAGE}`);
    return 2;
  }
  const timeoutMs = Number(values['timeout-ms']);
  if (!/^\d+$/.test(values['timeout-ms']) || timeoutMs < 100) {
    console.error(`--timeout-ms must be an integer of at least 100\n${USAGE}`);
    return 2;
  }

  return withDatabase(async (db, logger, config) => {
    const { importOutageMs, importWorkers } = config;
    const call = {
      url,
      ...(values.source === undefined ? {} : { source: values.source }),
      full: values.full,
      replace: values.replace,
      force: values.force,
      headers,
    };
    const report = await withProgress('harvesting', 'records read', (onProgress) =>
      recordedHarvest(db, logger, config.metaSystem, call, () =>
        harvest(db, url, {
          source: values.source,
          full: values.full,
          ...(values.replace ? replaceUnder(config, values.force) : {}),
          headers,
          concurrency,
          timeoutMs,
          workers: importWorkers,
          onProgress,
          outages: loggedOutageRetry(logger, importOutageMs),
        }),
      ),
    );
    const { harvest: feed } = report;
    console.log(
      `Harvested ${feed.url}${feed.modifiedAfter ? ` (services modified after ${feed.modifiedAfter})` : ' (whole)'}` +
        `${feed.servicesBy ? `, services read as ${feed.servicesBy}` : ''}`,
    );
    for (const warning of feed.warnings) console.log(`warning: ${warning}`);
    printReport(report);
    if (feed.unreadable !== undefined) {
      console.log(`the feed could not be read whole: ${feed.unreadable}; what was read is loaded`);
      return 2;
    }
    return report.rejected > 0 || report.replace?.refused !== undefined ? 1 : 0;
  });
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(failureMessage(error));
  process.exitCode = 2;
}
