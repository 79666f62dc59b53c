import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { contactsField } from './contact.ts';
import { Email, Uri, Uuid } from './formats.ts';
import { fundingField } from './funding.ts';
import { Link } from './link.ts';
import { Location } from './location.ts';
import { metadataField } from './metadata.ts';
import { OrganizationIdentifier } from './organization_identifier.ts';
import { phonesField } from './phone.ts';
import { Program } from './program.ts';

/**
 * An organization that provides services, with its own details nested. Its `services` belong only to
 * the fully nested form (see full.ts), which avoids an organization→service→organization cycle.
 */
export const Organization = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the organization.'),
    name: z.string().describe('Official or public name of the organization.'),
    alternate_name: z.string().describe('Another name the organization is known by.').optional(),
    description: z.string().describe('What the organization does.'),
    email: Email.describe('Email address of the organization.').optional(),
    website: Uri.describe('Website of the organization.').optional(),
    // Not in the shared 3.0 schema; the spec (part 9) lists it among the current additions.
    additional_websites: z.array(Link).optional().describe('Further websites, such as social media.'),
    tax_status: z.string().describe('DEPRECATED: tax status, e.g. charitable.').optional(),
    tax_id: z.string().describe('DEPRECATED: tax identifier.').optional(),
    // A number, not an integer, in the official schema.
    year_incorporated: z.number().describe('Year the organization was legally formed.').optional(),
    legal_status: z.string().describe('Legal form of the organization.').optional(),
    // The official schema gives no format for the logo.
    logo: z.string().describe('URL of the logo of the organization.').optional(),
    uri: Uri.describe('Persistent identifier of the organization, as a URI.').optional(),
    parent_organization_id: Uuid.describe('Identifier of the parent organization.').optional(),
    funding: fundingField,
    contacts: contactsField,
    phones: phonesField,
    locations: z.array(Location).optional().describe('Locations the organization operates.'),
    programs: z.array(Program).optional().describe('Programs the organization runs.'),
    organization_identifiers: z
      .array(OrganizationIdentifier)
      .optional()
      .describe('Identifiers of the organization in registers.'),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('An organization that provides services.');
