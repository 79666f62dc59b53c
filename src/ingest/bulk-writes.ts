import type { AnyBulkWriteOperation, Collection, Document, Filter } from 'mongodb';
import { MongoBulkWriteError } from 'mongodb';

const DUPLICATE_KEY = 11000;
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
  for (let round = 1; pending.length > 0; round++) {
    try {
      await collection.bulkWrite(pending, { ordered: false });
      return;
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError) || round === MAX_ROUNDS) throw error;
      const failures = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
      const retries: AnyBulkWriteOperation<T>[] = [];
      for (const failure of failures) {
        const operation = pending[failure.index]!;
        const found = { code: failure.code, errmsg: failure.errmsg };
        const retry = remedies.map((remedy) => remedy(operation, found)).find((write) => write !== undefined);
        if (!retry) throw error;
        retries.push(retry);
      }
      pending = retries;
    }
  }
}
