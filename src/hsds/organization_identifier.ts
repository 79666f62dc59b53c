import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** An identifier given to an organization by a register, such as a charity or company number. */
export const OrganizationIdentifier = z
  .looseObject({
    id: Uuid.describe('Unique identifier of this entry.'),
    organization_id: Uuid.describe('Identifier of the organization identified.').optional(),
    identifier_scheme: z.string().describe('Code of the register, e.g. an org-id.guide scheme.').optional(),
    identifier_type: z.string().describe('Kind of identifier, in words.'),
    identifier: z.string().describe('The identifier itself.'),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('An identifier of an organization in a register.');
