import type { Document } from 'mongodb';
import { replacing, writtenDocument, type Remedy } from './bulk-writes.ts';

const GEO_KEYS_ERROR = 16755;

/**
 * MongoDB refuses a whole document whose geometry its 2dsphere index cannot take. Our own checks should
 * have left such geometry out already; if the server is stricter still, the document is written again
 * without its geo fields, so the record is stored and served and only misses geo search.
 */
export function leavingOutUnindexableGeo(warnings: string[]): Remedy<Document> {
  return (operation, failure) => {
    if (failure.code !== GEO_KEYS_ERROR) return undefined;
    const document = writtenDocument(operation);
    if (!document || document._geo === undefined) return undefined;
    const { _geo: _unused, ...withoutGeo } = document;
    warnings.push(
      `${document.id as string}: the database could not index its geometry (${failure.errmsg}); left out of geo search`,
    );
    return replacing('id', withoutGeo);
  };
}
