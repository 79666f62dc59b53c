import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import { failureMessage } from '../failure-message.ts';
import type { Config } from '../config.ts';
import { replaceUnder } from '../ingest/import.ts';
import { harvest } from './harvest.ts';
import { recordedHarvest } from './harvest-entries.ts';

/** A feed the server harvests on its own (HSDS_HARVEST). */
export interface ScheduledFeed {
  url: string;
  source?: string;
  intervalMs: number;
  headers: Record<string, string>;
  full: boolean;
  replace: boolean;
  force: boolean;
}

export interface ScheduleOptions {
  logger: Logger;
  /** The meta entries' `system`, the replace rules, the import's validation workers. */
  config: Pick<Config, 'metaSystem' | 'replaceMaxMissingShare' | 'tombstoneDays' | 'importWorkers'>;
}

/**
 * Harvests the configured feeds, one at a time: each at once, then again once its interval has passed
 * since its last run began. Each run is recorded in the meta log; a feed that fails (unreachable, its
 * database out of reach) is logged and tried again at its next turn, never stopping the others or the
 * server. `stop` ends the schedule once the run under way (if any) has finished.
 */
export function scheduleHarvests(
  db: Db,
  feeds: readonly ScheduledFeed[],
  { logger, config }: ScheduleOptions,
): { stop(): Promise<void> } {
  const stopping = new AbortController();
  const nextAt = feeds.map(() => Date.now());
  const runOne = async (feed: ScheduledFeed) => {
    const call = {
      url: feed.url,
      ...(feed.source === undefined ? {} : { source: feed.source }),
      full: feed.full,
      replace: feed.replace,
      force: feed.force,
      headers: feed.headers,
    };
    const report = await recordedHarvest(db, logger, config.metaSystem, call, () =>
      harvest(db, feed.url, {
        source: feed.source,
        full: feed.full,
        ...(feed.replace ? replaceUnder(config, feed.force) : {}),
        headers: feed.headers,
        workers: config.importWorkers,
      }),
    );
    const summary = {
      url: feed.url,
      source: report.source,
      inserted: report.inserted,
      updated: report.updated,
      rejected: report.rejected,
    };
    if (report.harvest.unreadable !== undefined)
      logger.warn(
        { ...summary, unreadable: report.harvest.unreadable },
        'harvest could not read the whole feed',
      );
    else logger.info(summary, 'harvested');
  };
  const running = (async () => {
    while (!stopping.signal.aborted && feeds.length > 0) {
      const due = nextAt.indexOf(Math.min(...nextAt));
      const waitMs = nextAt[due]! - Date.now();
      if (waitMs > 0) {
        await sleep(waitMs, undefined, { signal: stopping.signal }).catch(() => {});
        continue;
      }
      const feed = feeds[due]!;
      nextAt[due] = Date.now() + feed.intervalMs;
      try {
        await runOne(feed);
      } catch (error) {
        logger.warn(
          { url: feed.url, reason: failureMessage(error), retryInMs: feed.intervalMs },
          'harvest failed; tried again at its next turn',
        );
      }
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
