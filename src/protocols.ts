import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import type { FailedAttempts } from './auth/failed-attempts.ts';
import type { Config } from './config.ts';

/** What the management and meta protocols and the bulk-load endpoint need from the app. */
export interface ProtocolDependencies {
  db: Db;
  config: Config;
  logger: Logger;
  /** Failed-authentication counter shared by every protected endpoint. */
  attempts: FailedAttempts;
  /** Whether the indexes are made: writes wait until then (writes-after-indexes.ts). */
  indexed: () => boolean;
}
