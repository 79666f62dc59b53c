import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Uuid } from './formats.ts';
import { languagesField } from './language.ts';
import { metadataField } from './metadata.ts';

/** A telephone number for an organization, service, location, contact or service at location. */
export const Phone = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the phone.'),
    location_id: Uuid.describe('Identifier of the location reached by this number.').optional(),
    service_id: Uuid.describe('Identifier of the service reached by this number.').optional(),
    organization_id: Uuid.describe('Identifier of the organization reached by this number.').optional(),
    contact_id: Uuid.describe('Identifier of the contact reached by this number.').optional(),
    service_at_location_id: Uuid.describe(
      'Identifier of the service at location reached by this number.',
    ).optional(),
    number: z.string().describe('The telephone number.'),
    // The official schema types the extension as a number, not an integer.
    extension: z.number().describe('Extension to dial after the number.').optional(),
    // Free text in the official schema (e.g. voice, fax, text); no allowed values are fixed.
    type: z.string().describe('Kind of line, e.g. voice, fax, text.').optional(),
    description: z.string().describe('What the number is for and when it is answered.').optional(),
    languages: languagesField,
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A telephone number.');

/** The `phones` field as every owner of phones declares it. */
export const phonesField = z.array(Phone).optional().describe('Telephone numbers.');
