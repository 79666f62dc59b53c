import * as z from 'zod';
import { Accessibility } from './accessibility.ts';
import { Address } from './address.ts';
import { attributesField } from './attribute.ts';
import { contactsField } from './contact.ts';
import { Uri, Uuid } from './formats.ts';
import { languagesField } from './language.ts';
import { metadataField } from './metadata.ts';
import { phonesField } from './phone.ts';
import { schedulesField } from './schedule.ts';

/** Kinds of location the official schema allows. */
export const LocationType = z
  .enum(['physical', 'postal', 'virtual'])
  .describe('Whether the location is a physical place, a postal address or virtual.');

/** A place where services are delivered, with its addresses, contacts, phones, schedules and access. */
export const Location = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the location.'),
    location_type: LocationType,
    url: Uri.describe('Web address of a virtual location.').optional(),
    organization_id: Uuid.describe('Identifier of the organization operating the location.').optional(),
    name: z.string().describe('Name of the location.').optional(),
    alternate_name: z.string().describe('Another name the location is known by.').optional(),
    description: z.string().describe('The location, in words.').optional(),
    transportation: z.string().describe('How to get there by public transport.').optional(),
    latitude: z.number().describe('WGS 84 latitude, in decimal degrees.').optional(),
    longitude: z.number().describe('WGS 84 longitude, in decimal degrees.').optional(),
    external_identifier: z.string().describe('Identifier of the location in another system.').optional(),
    external_identifier_type: z.string().describe('Scheme of external_identifier, e.g. UPRN.').optional(),
    languages: languagesField,
    addresses: z.array(Address).optional().describe('Addresses of the location.'),
    contacts: contactsField,
    accessibility: z.array(Accessibility).optional().describe('Accessibility provisions.'),
    phones: phonesField,
    schedules: schedulesField,
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A place where services are delivered.');
