import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** A language spoken at a service, location or phone line (not counting interpretation). */
export const Language = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the language entry.'),
    service_id: Uuid.describe('Identifier of the service where the language is spoken.').optional(),
    location_id: Uuid.describe('Identifier of the location where the language is spoken.').optional(),
    phone_id: Uuid.describe('Identifier of the phone line where the language is spoken.').optional(),
    name: z.string().describe('Name of the language.').optional(),
    code: z.string().describe('ISO 639 code of the language.').optional(),
    note: z.string().describe('Notes on how the language is available.').optional(),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A language spoken at a service, location or phone line.');

/** The `languages` field as services, locations and phones declare it. */
export const languagesField = z
  .array(Language)
  .optional()
  .describe('Languages spoken, without interpretation.');
