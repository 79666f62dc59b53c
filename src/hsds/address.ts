import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** Kinds of address the official schema allows. */
export const AddressType = z.enum(['physical', 'postal', 'virtual']).describe('Kind of address.');

/** A postal or physical address of a location. */
export const Address = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the address.'),
    location_id: Uuid.describe('Identifier of the location at this address.').optional(),
    attention: z.string().describe('Person or service to address mail to.').optional(),
    address_1: z.string().describe('First line of the address.'),
    address_2: z.string().describe('Further lines of the address.').optional(),
    city: z.string().describe('City or town.'),
    region: z.string().describe('Region, such as a county.').optional(),
    state_province: z.string().describe('State or province.'),
    postal_code: z.string().describe('Postal or zip code.'),
    country: z.string().describe('ISO 3166-1 alpha-2 country code.'),
    address_type: AddressType,
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('An address of a location.');
