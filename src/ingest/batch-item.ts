import { decompose, type Decomposition } from './decompose.ts';
import type { EntityType } from '../hsds/entities.ts';
import { describeSource, type InputRecord } from './input-record.ts';
import { oversizedRow } from './oversized-rows.ts';
import type { Candidate } from './unchanged-records.ts';
import { validateRecord, type Rejection } from './validate.ts';
import type { RecordType } from './record-type.ts';

/** A validated record (or tabular row) and the rows it consists of; `type` names it in the report. */
export type BatchItem = { type: string; decomposition: Decomposition; candidate?: Candidate };

/** A record read, with its fingerprint (unchanged-records.ts). */
export interface BatchEntry {
  input: InputRecord;
  fingerprint?: string;
}

/** What a validation worker is sent (validation-pool.ts). */
export interface CheckRequest {
  entries: BatchEntry[];
  type: RecordType | undefined;
}

/** What validating one entry gives: its item, or why it was rejected (`type`: what it was, if known). */
export type CheckedEntry = { item: BatchItem } | { rejected: { type?: string; rejections: Rejection[] } };

/** A tabular-form row is already normalized: it is its own single row, with its foreign keys as given. */
const tabularRow = (
  entity: EntityType,
  row: Record<string, unknown>,
  columns: readonly string[] = Object.keys(row),
): Decomposition => ({
  rows: [{ entity, row: { ...row, _id: row.id as string, id: row.id as string }, mode: 'table', columns }],
  childLists: [],
});

/** Checks each entry of a request, in order: in a validation worker, or in the calling thread. */
export const checkAll = ({ entries, type }: CheckRequest): CheckedEntry[] =>
  entries.map((entry) => checkEntry(entry, type));

/**
 * Validates a record and decomposes it into its rows; the rejection otherwise. Reads nothing and depends on
 * nothing but the record, so that it can run in a worker thread (validation-pool.ts).
 */
export function checkEntry({ input, fingerprint }: BatchEntry, type: RecordType | undefined): CheckedEntry {
  const validated = validateRecord(input, type);
  if (!validated.ok) {
    const rejectedType = input.entity ?? type ?? input.type;
    return {
      rejected: { ...(rejectedType ? { type: rejectedType } : {}), rejections: validated.rejections },
    };
  }
  const item: BatchItem =
    'entity' in validated
      ? {
          type: validated.entity,
          decomposition: tabularRow(validated.entity, validated.row, input.columns),
        }
      : {
          type: validated.type,
          decomposition: decompose(validated.type, validated.record),
          // A service record's document may be marked as its own, to be recognised when given again.
          ...(fingerprint !== undefined && validated.type === 'service'
            ? { candidate: { id: validated.record.id as string, fingerprint } }
            : {}),
        };
  const oversized = oversizedRow(input, item.decomposition);
  if (oversized === undefined) return { item };
  return {
    rejected: { type: item.type, rejections: [{ at: describeSource(input.source), message: oversized }] },
  };
}
