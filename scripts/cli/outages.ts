import type { Logger } from 'pino';
import type { OutageRetry } from '../../src/ingest/import.ts';

/** A command's import waits out the database out of reach for `forMs` (HSDS_IMPORT_OUTAGE_MS), saying so. */
export const loggedOutageRetry = (logger: Logger, forMs: number): OutageRetry => ({
  forMs,
  onRetry: (error, retryInMs) =>
    logger.warn(
      { reason: (error as Error).message, retryInMs, givesUpAfterMs: forMs },
      'the database is out of reach; retrying',
    ),
});
