import type { AbstractCursor } from 'mongodb';

/**
 * The batches of `cursor`, each after the first asked for as soon as the one before is taken, so that the
 * database assembles it while the caller sends the one before (the driver asks only once its buffer is
 * empty, and the two would take turns). At most two batches are held. The cursor is closed when the caller
 * stops early. Not for cursors with a `map` transform: buffered documents are taken untransformed.
 */
export async function* readAheadBatches<T>(cursor: AbstractCursor<T>): AsyncGenerator<T[]> {
  let more: Promise<boolean> | undefined;
  try {
    more = cursor.hasNext();
    while (await more) {
      const batch = cursor.readBufferedDocuments();
      more = cursor.hasNext();
      // If the caller stops before awaiting it, that read's failure is no one's: the stream has ended.
      more.catch(() => {});
      yield batch;
    }
  } finally {
    // The read in flight is let finish first: closing under it would share its session with the kill.
    await more?.catch(() => false);
    await cursor.close();
  }
}

/** The documents of `cursor`, read a batch ahead (readAheadBatches). */
export async function* readAhead<T>(cursor: AbstractCursor<T>): AsyncGenerator<T> {
  for await (const batch of readAheadBatches(cursor)) yield* batch;
}
