import type { Document } from 'bson';
import type { IndexSpec } from '../engine/index-spec.ts';

/**
 * One change to a database as the journal and the snapshot store it. Every record sets a final state
 * (a document's whole new version, a deletion, a collection's existence) rather than a delta, so that
 * replaying a journal over a snapshot that already contains it is harmless.
 */
export type JournalRecord =
  | { op: 'createCollection'; collection: string; options: Document }
  | { op: 'dropCollection'; collection: string }
  | { op: 'createIndex'; collection: string; spec: IndexSpec }
  | { op: 'dropIndex'; collection: string; name: string }
  | { op: 'put'; collection: string; doc: Document }
  | { op: 'delete'; collection: string; id: unknown };
