import { calculateObjectSize } from 'bson';
import type { AnyBulkWriteOperation, Collection, Document, Filter } from 'mongodb';
import { MongoBulkWriteError } from 'mongodb';
import { DUPLICATE_KEY } from '../db/duplicate-key.ts';

/** MongoDB's BSONObjectTooLarge, also given here to a document the driver refused to send. */
export const DOCUMENT_TOO_LARGE = 10334;
/** The largest document MongoDB stores (every server's `maxBsonObjectSize`). */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
/** Rounds of retries: a retried write may fail once more for another reason (see `Remedy`). */
const MAX_ROUNDS = 3;

/** A failed write's error: its code and message as the server gave them. */
export interface WriteFailure {
  code: number | undefined;
  errmsg: string | undefined;
}

/** The write to try instead of one that failed, or undefined when the failure must fail the import. */
export type Remedy<T extends Document> = (
  operation: AnyBulkWriteOperation<T>,
  failure: WriteFailure,
) => AnyBulkWriteOperation<T> | undefined;

/**
 * A replace-or-insert of `document` by its unique `key`. The `_id` a driver gave the document when
 * inserting it is left out unless it is the key: a stored document keeps its own.
 */
export function replacing<T extends Document>(key: string, document: T): AnyBulkWriteOperation<T> {
  const { _id: _driverId, ...rest } = document;
  const replacement = (key === '_id' ? document : rest) as T;
  return { replaceOne: { filter: { [key]: document[key] } as Filter<T>, replacement, upsert: true } };
}

/**
 * What keeps an insert as safe as an upsert: a document planned as new but created meanwhile (by another
 * import, or by this one before a crash) fails with a duplicate key and is replaced whole instead.
 */
export const replaceDuplicate =
  <T extends Document>(key: string): Remedy<T> =>
  (operation, failure) =>
    failure.code === DUPLICATE_KEY && 'insertOne' in operation
      ? replacing(key, operation.insertOne.document as T)
      : undefined;

/** The document an insert or replace writes. */
export function writtenDocument<T extends Document>(operation: AnyBulkWriteOperation<T>): T | undefined {
  if ('insertOne' in operation) return operation.insertOne.document as T;
  if ('replaceOne' in operation) return operation.replaceOne.replacement as T;
  return undefined;
}

/** What a failed bulk write left to do: the writes that failed, and those never sent. */
interface Failed<T extends Document> {
  failures: (WriteFailure & { operation: AnyBulkWriteOperation<T> })[];
  unsent: AnyBulkWriteOperation<T>[];
  /** Whether anything was sent: a round the driver refused whole does not use up a retry of the writes. */
  sent: boolean;
}

/**
 * The bytes the driver checks against the size limit: the document inserted, or the whole update
 * statement of a replace (filter and replacement).
 */
function checkedBytes<T extends Document>(operation: AnyBulkWriteOperation<T>): number {
  const sizeOf = (value: Document) => calculateObjectSize(value, { ignoreUndefined: false });
  if ('insertOne' in operation) return sizeOf(operation.insertOne.document);
  if (!('replaceOne' in operation)) return 0;
  const { filter, replacement, upsert } = operation.replaceOne;
  return sizeOf({ q: filter, u: replacement, multi: false, upsert: upsert ?? false });
}

/**
 * The writes of a bulk write that failed, when it is known which: a server's write errors of an unordered
 * bulk write that ran to its end (every other write is done), or the documents over the size limit when
 * the driver refused the whole bulk write before sending anything (its error names none; the other
 * writes are sent again). Anything else (a connection lost part-way, a write concern error: the driver
 * then reports no write errors, and writes may not have been made) is undefined, and must be thrown.
 */
function failedWrites<T extends Document>(
  error: unknown,
  operations: AnyBulkWriteOperation<T>[],
): Failed<T> | undefined {
  if (error instanceof MongoBulkWriteError) {
    const failures = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    if (failures.length === 0 || error.writeConcernError) return undefined;
    return {
      failures: failures.map(({ index, code, errmsg }) => ({ operation: operations[index]!, code, errmsg })),
      unsent: [],
      sent: true,
    };
  }
  const failed: Failed<T> = { failures: [], unsent: [], sent: false };
  for (const operation of operations) {
    const bytes = checkedBytes(operation);
    if (bytes < MAX_DOCUMENT_BYTES) failed.unsent.push(operation);
    else
      failed.failures.push({
        operation,
        code: DOCUMENT_TOO_LARGE,
        errmsg: `the document is ${bytes} bytes, over MongoDB's limit of ${MAX_DOCUMENT_BYTES}`,
      });
  }
  return failed.failures.length > 0 ? failed : undefined;
}

/**
 * Runs `operations` as unordered bulk writes; each that fails is retried as the first remedy that knows
 * its failure says, and a failure no remedy knows is thrown. New documents are written as inserts, which
 * cost the database far less than upserts; `replaceDuplicate` keeps that as safe.
 */
export async function bulkWriteWithRemedies<T extends Document>(
  collection: Collection<T>,
  operations: AnyBulkWriteOperation<T>[],
  ...remedies: Remedy<T>[]
): Promise<void> {
  let pending = operations;
  // Rounds that sent writes, and rounds the driver refused whole, each counted against MAX_ROUNDS.
  const rounds = { sent: 0, refused: 0 };
  while (pending.length > 0) {
    try {
      await collection.bulkWrite(pending, { ordered: false });
      return;
    } catch (error) {
      const failed = failedWrites(error, pending);
      if (!failed || ++rounds[failed.sent ? 'sent' : 'refused'] === MAX_ROUNDS) throw error;
      const retries: AnyBulkWriteOperation<T>[] = [];
      for (const { operation, ...failure } of failed.failures) {
        // Asked in turn until one answers: a remedy that answers also records what it did (a warning, a
        // record left out), which must not happen for a failure an earlier one took.
        let retry: AnyBulkWriteOperation<T> | undefined;
        for (const remedy of remedies) if ((retry = remedy(operation, failure)) !== undefined) break;
        if (!retry) throw error;
        retries.push(retry);
      }
      pending = [...failed.unsent, ...retries];
    }
  }
}
