import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { IsoDate, Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** A structured price of a service over a period. */
export const CostOption = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the cost option.'),
    service_id: Uuid.describe('Identifier of the service this price is for.').optional(),
    valid_from: IsoDate.describe('First date the price applies.').optional(),
    valid_to: IsoDate.describe('Last date the price applies.').optional(),
    option: z.string().describe('What the price buys, e.g. a session.').optional(),
    // Free text in the official schema (ISO 4217 codes expected); no allowed values are fixed.
    currency: z.string().describe('ISO 4217 code of the currency.').optional(),
    amount: z.number().describe('The price.').optional(),
    amount_description: z.string().describe('The price in words.').optional(),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A price of a service over a period.');
