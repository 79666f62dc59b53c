import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import { ImportEntries } from '../ingest/import-entries.ts';
import { MetaEntries } from '../meta/entries.ts';
import { dayOf } from '../meta/entry.ts';
import { REDACTED } from '../meta/redact.ts';
import type { HarvestReport } from './harvest.ts';

/** What a harvest was asked to do, as its meta entry tells it. */
export interface HarvestCall {
  url: string;
  source?: string;
  full?: boolean;
  replace?: boolean;
  force?: boolean;
  /** The headers sent: recorded by name only, their values (credentials) never. */
  headers: Record<string, string>;
}

/**
 * Runs a harvest recorded in the meta log as an import is: an entry (`POST /harvest`, our name; the feed
 * and options as its parameters, the headers by name only) Waiting while it runs, completed with its
 * report, or with the failure if it did not finish. Gives the report; throws what the harvest threw.
 */
export async function recordedHarvest(
  db: Db,
  logger: Logger,
  system: string,
  call: HarvestCall,
  run: () => Promise<HarvestReport>,
): Promise<HarvestReport> {
  const imports = new ImportEntries(new MetaEntries(db), logger);
  const at = new Date();
  const { headers, ...parameters } = call;
  const entry = await imports.open({
    timestamp: dayOf(at),
    recorded_at: at.toISOString(),
    system,
    path: '/harvest',
    verb: 'POST',
    request_parameters: JSON.stringify(parameters),
    request_headers: JSON.stringify(Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED]))),
    request_body: '',
  });
  const outcome: { report?: HarvestReport; error?: unknown } = {};
  await imports.complete(entry.id, async () => {
    try {
      return (outcome.report = await run());
    } catch (error) {
      outcome.error = error;
      throw error;
    }
  });
  if (outcome.error !== undefined) throw outcome.error;
  return outcome.report!;
}
