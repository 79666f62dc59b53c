/**
 * Small helpers for the contract suite. The suite talks to the database only through the official
 * `mongodb` driver, and every expectation follows MongoDB's documented behaviour.
 */
import { MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import { expect } from 'vitest';

/**
 * Awaits an operation that MongoDB must reject and returns the server error.
 * Fails when the operation succeeds or fails with anything but a server error.
 */
export async function serverError(operation: Promise<unknown>): Promise<MongoServerError> {
  let failure: unknown;
  let failed = false;
  try {
    await operation;
  } catch (error) {
    failure = error;
    failed = true;
  }
  if (!failed) throw new Error('expected the server to reject the operation, but it succeeded');
  expect(failure).toBeInstanceOf(MongoServerError);
  return failure as MongoServerError;
}

/**
 * Test data uses `_id`s of every BSON type (numbers, strings, documents), which the driver's
 * default `Document` schema (ObjectId `_id`) does not admit, so the suite uses untyped collections.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCollection = Collection<any>;

/** Hands out collections with names unique within the file, so tests never share data. */
export function collections(db: Db, prefix: string): (label: string) => AnyCollection {
  let counter = 0;
  return (label) => db.collection(`${prefix}_${label}_${++counter}`);
}

/** The `_id`s of documents, in result order. */
export const idsOf = (docs: Document[]): unknown[] => docs.map((doc) => doc._id);

/** Numbers sorted ascending (for results whose order MongoDB does not define). */
export const sortedNumbers = (values: unknown[]): number[] =>
  (values as number[]).slice().sort((a, b) => a - b);

/** Strings sorted by code unit (for results whose order MongoDB does not define). */
export const sortedStrings = (values: unknown[]): string[] =>
  (values as string[]).slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
