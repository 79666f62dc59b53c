import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** A named collection of related services run by one organization. */
export const Program = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the program.'),
    organization_id: Uuid.describe('Identifier of the organization running the program.').optional(),
    name: z.string().describe('Name of the program.'),
    alternate_name: z.string().describe('Another name the program is known by.').optional(),
    description: z.string().describe('What the program does.'),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A collection of related services.');
