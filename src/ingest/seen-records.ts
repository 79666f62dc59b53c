import { DUPLICATE_KEY } from '../db/duplicate-key.ts';
import { DAY_MS } from '../db/tombstones.ts';
import { MongoBulkWriteError, ObjectId, type Collection, type Db } from 'mongodb';
import { entityKey, type EntityType } from '../hsds/entities.ts';

/** Collections of records seen by replacing loads: one per load, named by it. */
const SEEN_PREFIX = 'import.seen.';

/** A load's seen records are dropped at its end; those of a load that stopped, by a later load after a day. */
const STALE_AFTER_MS = DAY_MS;

/**
 * The records a replacing load contained (`entity:id` of each record's root row), kept in the database
 * rather than in memory, so that the import's memory stays flat whatever the size of the load: after the
 * load, the source's rows missing here are what it deletes (replace-plan.ts).
 */
export class SeenRecords {
  private readonly collection: Collection<{ _id: string }>;

  private constructor(
    private readonly db: Db,
    readonly name: string,
  ) {
    this.collection = db.collection<{ _id: string }>(name);
  }

  /** A new set for a load, after dropping those loads that stopped left more than a day ago. */
  static async start(db: Db): Promise<SeenRecords> {
    const stale = Date.now() - STALE_AFTER_MS;
    for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
      if (!name.startsWith(SEEN_PREFIX)) continue;
      const id = name.slice(SEEN_PREFIX.length);
      if (ObjectId.isValid(id) && new ObjectId(id).getTimestamp().getTime() < stale)
        await db.dropCollection(name).catch(() => {});
    }
    return new SeenRecords(db, `${SEEN_PREFIX}${new ObjectId().toHexString()}`);
  }

  async add(records: { entity: EntityType; id: string }[]): Promise<void> {
    if (records.length === 0) return;
    const keys = [...new Set(records.map(({ entity, id }) => entityKey(entity, id)))];
    // A record the load gives twice is seen once.
    await this.collection
      .insertMany(
        keys.map((_id) => ({ _id })),
        { ordered: false },
      )
      .catch((error: unknown) => {
        if (!(error instanceof MongoBulkWriteError && onlyDuplicates(error))) throw error;
      });
  }

  /** Which of these `entity:id` keys the load contained. */
  async has(keys: string[]): Promise<Set<string>> {
    const found = await this.collection.find({ _id: { $in: keys } }).toArray();
    return new Set(found.map(({ _id }) => _id));
  }

  async drop(): Promise<void> {
    await this.db.dropCollection(this.name).catch(() => {});
  }
}

function onlyDuplicates(error: MongoBulkWriteError): boolean {
  const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
  return errors.length > 0 && errors.every((writeError) => writeError.code === DUPLICATE_KEY);
}
