import type { Db } from 'mongodb';
import { DERIVATION_MARK, hasDirectoryDocuments } from './collections.ts';

/**
 * What an import derives from the records it stores (search words, eligible ages, opening hours, served
 * forms), numbered: raised by every release that changes it, so that a server started on documents an
 * earlier release derived says that `npm run rebuild` is due, rather than serving filters that match none
 * of them. 1: search by stems and addresses (issue #22), ages and opening hours (issue #23). 2: services'
 * served forms without their organization, spliced in when read (issue #18). 3: a service area's text is
 * read as postcodes only if each has a digit (`Statewide` hid its service from every postcode search); a
 * word with an apostrophe is one search term (`veteran's` as `veterans`).
 */
export const DERIVATION = 3;

const MARK_ID = 'documents';

/** The start-up warning while the mark is not this release's (see `staleDerivation`). */
export const staleDerivationMessage = (stored: number | null): string =>
  (stored === null
    ? 'the stored documents carry no derivation mark (derived before releases marked it, or restored without it)'
    : 'the stored documents were derived by an earlier release') +
  ': run `npm run rebuild` (until then they are found and served as that release stored them; docs/operations.md, Upgrading)';

interface Mark {
  _id: string;
  derivation: number;
  at: Date;
}

/** Records that every stored document is derived as this release derives it (a rebuild has just run). */
export async function markDerivation(db: Db): Promise<void> {
  await db
    .collection<Mark>(DERIVATION_MARK)
    .updateOne({ _id: MARK_ID }, { $set: { derivation: DERIVATION, at: new Date() } }, { upsert: true });
}

/**
 * The derivation the stored documents were made with when it is not this release's: a number, or null for
 * documents stored before releases marked it (or restored without the mark). Undefined when they are
 * current, or when there are none.
 */
export async function staleDerivation(db: Db): Promise<number | null | undefined> {
  const mark = await db.collection<Mark>(DERIVATION_MARK).findOne({ _id: MARK_ID });
  if (mark?.derivation === DERIVATION || !(await hasDirectoryDocuments(db))) return undefined;
  return mark?.derivation ?? null;
}

/**
 * Marks a directory without documents as derived by this release, before an import fills it: what it stores
 * is derived as now. Only an import does: a mark written into an empty directory at start-up would vouch
 * for documents restored into it afterwards.
 */
export async function markIfEmpty(db: Db): Promise<void> {
  if (!(await hasDirectoryDocuments(db))) await markDerivation(db);
}
