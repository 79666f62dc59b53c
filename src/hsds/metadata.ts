import * as z from 'zod';
import { IsoDate, Uuid } from './formats.ts';

/** One change record kept for provenance: which field of which record changed, when and by whom. */
export const Metadata = z
  .looseObject({
    id: Uuid.describe('Unique identifier of this change record.'),
    resource_id: Uuid.describe('Identifier of the record that changed.').optional(),
    resource_type: z.string().describe('Kind of record that changed, e.g. service.').optional(),
    last_action_date: IsoDate.describe('Date of the change.'),
    last_action_type: z.string().describe('Kind of change, e.g. create, update, delete.'),
    field_name: z.string().describe('Name of the field that changed.'),
    previous_value: z.string().describe('Value of the field before the change.'),
    replacement_value: z.string().describe('Value of the field after the change.'),
    updated_by: z.string().describe('Person or system that made the change.'),
  })
  .describe('A change record kept for provenance.');

/** The `metadata` field as every HSDS object declares it. */
export const metadataField = z.array(Metadata).optional().describe('Change records for this record.');
