import type { Db } from 'mongodb';
import { DIRECTORY_GENERATION } from './collections.ts';

/** The one document: a counter every change to what the directory serves moves on. */
interface Generation {
  _id: 'directory';
  generation: number;
  changed_at: Date;
}

const GENERATION_ID = 'directory';

/** Changes marked by this process: its own servers read the generation again at once, not within a while. */
let markedHere = 0;
export const changesMarkedHere = (): number => markedHere;

/**
 * Marks that what the directory serves has changed: called once the documents are written (never
 * before, or a server could cache what it read in between as the new generation). Every server sharing
 * the database follows the counter to drop the answers it keeps (src/directory/response-cache.ts).
 */
export async function markDirectoryChanged(db: Db): Promise<void> {
  await db
    .collection<Generation>(DIRECTORY_GENERATION)
    .updateOne(
      { _id: GENERATION_ID },
      { $inc: { generation: 1 }, $currentDate: { changed_at: true } },
      { upsert: true },
    );
  markedHere++;
}

/** The directory's current generation: 0 before anything was ever written. */
export async function directoryGeneration(db: Db): Promise<number> {
  const found = await db
    .collection<Generation>(DIRECTORY_GENERATION)
    .findOne({ _id: GENERATION_ID }, { projection: { _id: 0, generation: 1 } });
  return found?.generation ?? 0;
}
