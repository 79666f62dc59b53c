import type { Db } from 'mongodb';
import { HARVESTS } from '../db/collections.ts';
import { importRecords, type ImportOptions } from '../ingest/import.ts';
import type { ImportReport } from '../ingest/report.ts';
import { FeedClient, type FeedClientOptions } from './feed-client.ts';
import { readFeed, type FeedReading } from './feed-reader.ts';
import { feedUrlProblem } from './feed-url.ts';

/** A harvest's last successful run of a source: where it read, and when it began. */
interface HarvestState {
  _id: string;
  url: string;
  started_at: string;
}

export interface HarvestOptions
  extends Pick<ImportOptions, 'replace' | 'onProgress' | 'outages' | 'workers' | 'now'>, FeedClientOptions {
  /** The source the feed's records are loaded for; the feed's host unless given. */
  source?: string;
  /** Read every service, not only those changed since the source's last successful harvest. */
  full?: boolean;
}

/** What a harvest did: the import's report, and how the feed was read. */
export interface HarvestReport extends ImportReport {
  harvest: FeedReading & {
    url: string;
    /** `modified_after` asked of the services: unset for a full harvest. */
    modifiedAfter?: string;
  };
}

/**
 * The services a feed changed up to this long before a harvest began are asked again by the next one:
 * the publisher's clock (its `last_modified`) and ours may differ by that much.
 */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Harvests another HSDS 3.0 API into the database through the import (the same validation, writing and
 * report; records keep their ids): every service changed since the source's last successful harvest
 * (`modified_after`), or all of them (`full`, and always for a replace, whose deletions need the whole
 * feed). The run counts as successful once the feed was read whole: the next begins where it began.
 */
export async function harvest(db: Db, url: string, options: HarvestOptions = {}): Promise<HarvestReport> {
  const base = new URL(url);
  const problem = feedUrlProblem(base);
  if (problem !== undefined) throw new Error(`the feed URL ${problem}`);
  const source = options.source ?? base.host;
  const startedAt = (options.now ?? (() => new Date().toISOString()))();
  const states = db.collection<HarvestState>(HARVESTS);
  const last = options.full || options.replace ? null : await states.findOne({ _id: source });
  const modifiedAfter =
    last && last.url === base.href
      ? new Date(Date.parse(last.started_at) - CLOCK_SKEW_MS).toISOString()
      : undefined;
  const reading: FeedReading = { warnings: [] };
  const client = new FeedClient(options);
  const report = await importRecords(db, readFeed(client, base, { modifiedAfter }, reading), {
    ...options,
    source,
  });
  if (reading.unreadable === undefined) {
    await states.replaceOne({ _id: source }, { url: base.href, started_at: startedAt }, { upsert: true });
  }
  return { ...report, harvest: { ...reading, url: base.href, ...(modifiedAfter ? { modifiedAfter } : {}) } };
}
