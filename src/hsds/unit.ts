import * as z from 'zod';
import { Uri, Uuid } from './formats.ts';

/**
 * What a service capacity is counted in, e.g. beds. Not in the shared 3.0 schemas; fields from the
 * spec (part 2), required fields as in the later official HSDS schema for it (id and name).
 */
export const Unit = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the unit.'),
    name: z.string().describe('Name of the unit, e.g. Bed.'),
    scheme: z.string().describe('Scheme defining the unit, e.g. SI.').optional(),
    identifier: z.string().describe('Code of the unit in its scheme.').optional(),
    uri: Uri.describe('Where the unit is defined.').optional(),
  })
  .describe('A unit service capacity is counted in.');
