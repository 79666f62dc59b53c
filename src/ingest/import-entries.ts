import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { CallDescription } from '../meta/call-description.ts';
import type { MetaEntries } from '../meta/entries.ts';
import type { MetaEntry } from '../meta/entry.ts';
import { redactSecrets } from '../meta/redact.ts';
import { ImportLeaseLost } from './import-lease.ts';
import type { ImportReport } from './report.ts';

/** How often a running import says it is alive, and after how long without a sign it counts as dead. */
export const HEARTBEAT_MS = 10_000;
export const STALE_AFTER_MS = 60_000;
const HEARTBEAT_FIELD = '_heartbeat_at';
/** Attempts to record an import's outcome while the database is unreachable, doubling the wait each time. */
const COMPLETE_ATTEMPTS = 8;

/** What an import that did not finish leaves in its entry's `response_body`. */
export interface FailedImport {
  failed: true;
  error: string;
}

const AGAIN = 'Imports are idempotent: send the same data again to finish.';
export const INTERRUPTED: FailedImport = {
  failed: true,
  error: `The import was interrupted: the server stopped before it finished. ${AGAIN}`,
};
const failure = (error: unknown): FailedImport => ({
  failed: true,
  error:
    error instanceof ImportLeaseLost
      ? error.message
      : isDatabaseUnavailable(error)
        ? `The import failed: the database was unreachable. ${AGAIN}`
        : `The import failed unexpectedly. ${AGAIN}`,
});

/**
 * The meta entries of imports answered 202: created Waiting, kept alive by a heartbeat while the import is
 * queued or running, and completed with its report, or with a failure, so an entry never stays Waiting
 * forever. One whose heartbeat stopped (the process died) is completed as interrupted by the sweep.
 */
export class ImportEntries {
  constructor(
    private readonly entries: MetaEntries,
    private readonly logger: Logger,
  ) {}

  async open(call: CallDescription): Promise<MetaEntry> {
    return this.entries.create({ ...call, status: 'Waiting' }, { [HEARTBEAT_FIELD]: new Date() });
  }

  /** Runs the import (heartbeat meanwhile) and completes the entry with its outcome. Never rejects. */
  async complete(id: string, runImport: () => Promise<ImportReport>): Promise<void> {
    const heartbeat = setInterval(() => {
      this.entries.update(id, { [HEARTBEAT_FIELD]: new Date() }).catch(() => {
        // A missed beat only matters if they all are; the sweep's threshold allows for several.
      });
    }, HEARTBEAT_MS);
    heartbeat.unref();
    let outcome: ImportReport | FailedImport;
    try {
      outcome = await runImport();
    } catch (error) {
      this.logger.error({ err: error, metaEntryId: id }, 'import failed');
      outcome = failure(error);
    } finally {
      clearInterval(heartbeat);
    }
    await this.recordOutcome(id, outcome);
  }

  /** Completes, as interrupted, every Waiting import whose heartbeat stopped; how many there were. */
  async markInterrupted(now = new Date()): Promise<number> {
    return this.entries.updateWhere(
      { status: 'Waiting', [HEARTBEAT_FIELD]: { $lt: new Date(now.getTime() - STALE_AFTER_MS) } },
      { status: 'Complete', response_body: JSON.stringify(INTERRUPTED) },
      [HEARTBEAT_FIELD],
    );
  }

  private async recordOutcome(id: string, outcome: ImportReport | FailedImport): Promise<void> {
    for (let attempt = 1, delayMs = 500; ; attempt += 1, delayMs *= 2) {
      try {
        await this.entries.update(
          id,
          { status: 'Complete', response_body: JSON.stringify(redactSecrets(outcome)) },
          [HEARTBEAT_FIELD],
        );
        return;
      } catch (error) {
        if (attempt === COMPLETE_ATTEMPTS) {
          // Left Waiting with a stopped heartbeat: the sweep completes it as interrupted.
          this.logger.error({ err: error, metaEntryId: id }, 'import outcome could not be recorded');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }
}
