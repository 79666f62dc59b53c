import type { AbstractCursor } from 'mongodb';

/**
 * The documents of `cursor`, each batch after the first asked for as soon as the one before is taken, so
 * that the database assembles it while the caller sends the one before (the driver asks only once its
 * buffer is empty, and the two would take turns). At most two batches are held. The cursor is closed when
 * the caller stops early. Not for cursors with a `map` transform: buffered documents are taken untransformed.
 */
export async function* readAhead<T>(cursor: AbstractCursor<T>): AsyncGenerator<T> {
  try {
    let more = cursor.hasNext();
    while (await more) {
      const batch = cursor.readBufferedDocuments();
      more = cursor.hasNext();
      // If the caller stops before awaiting it, that read's failure (the cursor closed under it) is no one's.
      more.catch(() => {});
      yield* batch;
    }
  } finally {
    await cursor.close();
  }
}
