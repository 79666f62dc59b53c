import * as z from 'zod';
import { IsoDateTime, Uuid } from './formats.ts';
import { Unit } from './unit.ts';

/**
 * How much of a service is available, e.g. free beds. Not in the shared 3.0 schemas; fields from the
 * spec (part 2), required fields as in the later official HSDS schema for it (id, unit, available, updated).
 */
export const Capacity = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the capacity entry.'),
    service_id: Uuid.describe('Identifier of the service.').optional(),
    unit_id: Uuid.describe('Identifier of the unit.').optional(),
    unit: Unit.describe('What the capacity is counted in.'),
    available: z.number().describe('Units available as of the last update.'),
    maximum: z.number().describe('Most units that can be available.').optional(),
    description: z.string().describe('The capacity, in words.').optional(),
    updated: IsoDateTime.describe('When the figures were last updated, with UTC offset.'),
  })
  .describe('How much of a service is available.');
