import type { TestDatabase } from './database.ts';

/**
 * How many server-side cursors are open on a collection of the test database: the observable that shows
 * whether the app closed the cursor behind a request. The stand-in runs privately for one test file, so
 * its server-wide count (`serverStatus` `metrics.cursor.open.total`, as MongoDB reports it) is this
 * database's; a shared MongoDB is asked for the idle cursors on this namespace through `$currentOp`.
 */
export async function openCursors(database: TestDatabase, collection: string): Promise<number> {
  const admin = database.client.db('admin');
  if (database.kind === 'standin') {
    const status = await admin.command({ serverStatus: 1 });
    const total = (status.metrics as { cursor?: { open?: { total?: unknown } } } | undefined)?.cursor?.open
      ?.total;
    if (typeof total !== 'number') throw new Error('serverStatus reports no metrics.cursor.open.total');
    return total;
  }
  const cursors = await admin
    .aggregate([
      { $currentOp: { idleCursors: true, allUsers: true } },
      { $match: { ns: `${database.db.databaseName}.${collection}`, cursor: { $exists: true } } },
    ])
    .toArray();
  return cursors.length;
}
