import {
  MongoBulkWriteError,
  MongoDriverError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';

/**
 * Why this process's last attempt to connect failed (a refused connection, an unknown host), until one
 * succeeds: an operation waiting on that attempt fails only with the driver's "Topology is closed".
 */
let connectFailure: string | undefined;

/** Records the outcome of an attempt to connect: its failure, or (undefined) success. */
export function noteConnectAttempt(failure: Error | undefined): void {
  connectFailure = failure?.message;
}

/** What the database's unavailability says: for an operation that waited on a failed connect, its reason. */
export function unavailabilityReason(error: Error): string {
  return error instanceof MongoTopologyClosedError && connectFailure !== undefined
    ? connectFailure
    : error.message;
}

/** MongoDB's code (codeName OutOfDiskSpace) for a write it cannot make durable for lack of disk space. */
export const OUT_OF_DISK_SPACE = 14031;

/**
 * True for driver errors that mean "the database cannot do this right now", not "the request is bad": it
 * cannot be reached, it did not answer within HSDS_DB_TIMEOUT_MS (a reply, a connection, or a free
 * connection of the pool: see Database), or it refused a write for lack of disk space. A retry later may
 * succeed: the API answers 503 with Retry-After.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return (
    error instanceof MongoServerSelectionError ||
    // Timeouts of a reply (MongoNetworkTimeoutError) and pools cleared under a request are network errors.
    error instanceof MongoNetworkError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoOperationTimeoutError ||
    // No free connection within waitQueueTimeoutMS; the driver does not export its class.
    (error instanceof MongoDriverError && error.name === 'MongoWaitQueueTimeoutError') ||
    // A bulk write cut off by one of the above carries it as its response.
    (error instanceof MongoBulkWriteError && isDatabaseUnavailable(error.errorResponse)) ||
    isOutOfDiskSpace(error)
  );
}

/**
 * True for a write refused for lack of disk space, whatever shape the driver gives it: a command's error
 * (MongoServerError), one write's error (insertOne, updateOne…: a MongoServerError made of it), a bulk
 * write's (MongoBulkWriteError: the first one's code, and each in `writeErrors`), or a write concern error.
 */
export function isOutOfDiskSpace(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, writeErrors, writeConcernError, err } = error as {
    code?: unknown;
    writeErrors?: unknown;
    writeConcernError?: { code?: unknown };
    /** A MongoBulkWriteError's write concern error. */
    err?: { code?: unknown };
  };
  return (
    code === OUT_OF_DISK_SPACE ||
    writeConcernError?.code === OUT_OF_DISK_SPACE ||
    err?.code === OUT_OF_DISK_SPACE ||
    (Array.isArray(writeErrors) &&
      writeErrors.some((writeError: { code?: unknown }) => writeError?.code === OUT_OF_DISK_SPACE))
  );
}
