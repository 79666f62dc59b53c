import type { Document } from 'bson';
import { isPlainObject } from '../bson-values.ts';
import { encodingOf } from '../document-encoding.ts';
import type { Collection } from '../engine/collection.ts';
import type { Database } from '../engine/database.ts';
import { failedToParse, typeMismatch } from '../errors.ts';
import { applyUpdate, updateKind, upsertSeed, withId } from '../query/apply-update.ts';
import { selectDocuments } from '../query/select.ts';
import { targetCollection, type DatabaseCommand } from './command.ts';
import { WriteErrors } from './write-errors.ts';

interface UpdateStatement {
  q: Document;
  u: unknown;
  upsert?: boolean;
  multi?: boolean;
  arrayFilters?: Document[];
}

export interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  /** Versions before and after of the first document updated or inserted. */
  before?: Document;
  after?: Document;
}

/** An update that leaves the bytes as they were modifies nothing (and is not journaled). */
const sameBytes = (a: Document, b: Document) => Buffer.from(encodingOf(a)).equals(encodingOf(b));

/** Applies one update statement (shared by update and findAndModify). */
export function runUpdate(
  database: Database,
  collection: Collection,
  statement: UpdateStatement & { sort?: Document },
): UpdateOutcome {
  const kind = updateKind(statement.u);
  if (statement.multi && kind === 'replacement')
    throw failedToParse('multi update is not supported for replacement-style update');
  const context = {
    kind,
    filter: statement.q,
    arrayFilters: statement.arrayFilters,
    options: database.mingoOptions,
  };
  const targets = selectDocuments(database, collection, {
    filter: statement.q,
    sort: statement.sort,
    limit: statement.multi ? 0 : 1,
  });
  if (targets.length === 0) {
    if (!statement.upsert) return { matched: 0, modified: 0 };
    const seed = kind === 'replacement' ? { ...keepId(upsertSeed(statement.q)) } : upsertSeed(statement.q);
    const created = withId(applyUpdate(seed, statement.u, { ...context, inserting: true }));
    collection.insert(created);
    return { matched: 0, modified: 0, upsertedId: created._id, after: created };
  }
  let modified = 0;
  let after: Document | undefined;
  for (const doc of targets) {
    const next = applyUpdate(doc, statement.u, context);
    after ??= next;
    if (sameBytes(doc, next)) continue;
    collection.replace(doc, next);
    modified++;
  }
  return { matched: targets.length, modified, before: targets[0], after };
}

/** A replacement upsert keeps only the `_id` the filter names. */
function keepId(seed: Document): Document {
  return seed._id === undefined ? {} : { _id: seed._id };
}

export const update: DatabaseCommand = {
  names: ['update'],
  scope: 'database',
  writes: true,
  run({ body }, database) {
    const statements = body.updates;
    if (!Array.isArray(statements)) throw typeMismatch("Field 'updates' must be of type array");
    const collection = database.ensureCollection(targetCollection(body));
    const errors = new WriteErrors(body.ordered !== false);
    let n = 0;
    let nModified = 0;
    const upserted: { index: number; _id: unknown }[] = [];
    for (const [index, statement] of (statements as unknown[]).entries()) {
      const done = errors.attempt(index, () => {
        if (!isPlainObject(statement) || !isPlainObject(statement.q))
          throw typeMismatch('update statement must be an object with a q filter');
        const outcome = runUpdate(database, collection, statement as UpdateStatement);
        n += outcome.matched;
        nModified += outcome.modified;
        if (outcome.upsertedId !== undefined) {
          upserted.push({ index, _id: outcome.upsertedId });
          n++;
        }
      });
      if (!done) break;
    }
    return { n, nModified, ...(upserted.length > 0 ? { upserted } : {}), ...errors.reply(), ok: 1 };
  },
};
