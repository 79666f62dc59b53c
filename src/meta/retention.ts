import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import { DAY_MS } from '../db/tombstones.ts';
import { MetaEntries } from './entries.ts';

/** How often old entries are looked for: the log may overrun its retention by this much. */
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/** Removes the meta entries older than `days`; how many were removed. */
export async function removeExpiredMetaEntries(db: Db, days: number, now = new Date()): Promise<number> {
  return await new MetaEntries(db).removeRecordedBefore(new Date(now.getTime() - days * DAY_MS));
}

/**
 * Keeps the meta log to `days` (`HSDS_META_RETENTION_DAYS`): a sweep now and one every interval, each
 * logging what it removed, or why it failed (the next sweep tries again). Returns the function that stops
 * it. Every server process sweeps; a removal is the same whoever makes it.
 */
export function keepMetaEntriesFor(
  db: Db,
  days: number,
  logger: Logger,
  intervalMs = RETENTION_INTERVAL_MS,
): () => void {
  // 0: kept for good.
  if (days === 0) return () => {};
  const sweep = () => {
    removeExpiredMetaEntries(db, days).then(
      (removed) => {
        if (removed > 0) logger.info({ removed, retentionDays: days }, 'expired meta entries removed');
      },
      (error: unknown) => logger.warn({ err: error }, 'expired meta entries could not be removed'),
    );
  };
  sweep();
  const timer = setInterval(sweep, intervalMs).unref();
  return () => clearInterval(timer);
}
