import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Email, Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';
import { phonesField } from './phone.ts';

/** A named person or role to contact about an organization, service, location or service at location. */
export const Contact = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the contact.'),
    organization_id: Uuid.describe('Identifier of the organization this is a contact for.').optional(),
    service_id: Uuid.describe('Identifier of the service this is a contact for.').optional(),
    service_at_location_id: Uuid.describe(
      'Identifier of the service at location this is a contact for.',
    ).optional(),
    location_id: Uuid.describe('Identifier of the location this is a contact for.').optional(),
    name: z.string().describe('Name of the person.').optional(),
    title: z.string().describe('Job title of the person.').optional(),
    department: z.string().describe('Department the person works in.').optional(),
    email: Email.describe('Email address of the person.').optional(),
    phones: phonesField,
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A named contact.');

/** The `contacts` field as every owner of contacts declares it. */
export const contactsField = z.array(Contact).optional().describe('Named contacts.');
