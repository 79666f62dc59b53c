import { ConfigError } from './config.ts';
import { isDatabaseUnavailable, isOutOfDiskSpace, unavailabilityReason } from './db/unavailable.ts';
import { ImportLeaseLost } from './ingest/import-lease.ts';

/** System and argument errors an operator fixes by reading their message: a port, a path, an option. */
const OPERATOR_ERROR_CODES = new Set([
  'EADDRINUSE',
  'EADDRNOTAVAIL',
  'EACCES',
  'EPERM',
  'ENOENT',
  'ENOTDIR',
  'EISDIR',
  'ENOTFOUND',
  // The embedded database's data directory is held by another live process (the stand-in's DataDirInUse).
  'ERR_DATA_DIR_IN_USE',
  // It holds data in a format the stand-in does not read (UnreadableDataDir): the message says what to do.
  'ERR_DATA_DIR_UNREADABLE',
  'ERR_PARSE_ARGS_UNKNOWN_OPTION',
  'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
  'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL',
]);

/**
 * What a command (the server, the CLIs) prints when it cannot run: one line for what the operator can fix
 * (a setting, a port or data directory in use, a file that cannot be read, an unknown option, a database
 * out of reach or of disk space, an import that lost its lease), the whole error with its stack for anything else.
 */
export function failureMessage(error: unknown): unknown {
  if (error instanceof ConfigError || error instanceof ImportLeaseLost) return error.message;
  if (isOutOfDiskSpace(error)) return `the database is out of disk space: ${(error as Error).message}`;
  if (isDatabaseUnavailable(error))
    return `the database cannot be reached: ${unavailabilityReason(error as Error)}`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && OPERATOR_ERROR_CODES.has(code)) return (error as Error).message;
  return error;
}
