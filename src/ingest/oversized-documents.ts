import type { Document } from 'mongodb';
import { DOCUMENT_TOO_LARGE, writtenDocument, type Remedy } from './bulk-writes.ts';

/**
 * A nested document over MongoDB's size limit (a service at thousands of locations, say) cannot be stored.
 * Its rows are, and the rest of the import goes on; the document is left out, and any version stored
 * before is removed, since it no longer says what the rows say: the record is not served (404, left out of
 * lists) until a change makes it small enough. The report says so; its id is added to `leftOut`.
 */
export function leavingOutOversized(entity: string, warnings: string[], leftOut: string[]): Remedy<Document> {
  return (operation, failure) => {
    const document = writtenDocument(operation);
    if (failure.code !== DOCUMENT_TOO_LARGE || typeof document?.id !== 'string') return undefined;
    warnings.push(
      `${entity} ${document.id}: its nested document is too large for the database (${failure.errmsg}); ` +
        `its rows are stored but it is not served until it is smaller`,
    );
    leftOut.push(document.id);
    return { deleteOne: { filter: { id: document.id } } };
  };
}
