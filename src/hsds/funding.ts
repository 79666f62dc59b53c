import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** A source of funding for an organization or service. */
export const Funding = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the funding entry.'),
    organization_id: Uuid.describe('Identifier of the funded organization.').optional(),
    service_id: Uuid.describe('Identifier of the funded service.').optional(),
    source: z.string().describe('Where the funding comes from.').optional(),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A source of funding.');

/** The `funding` field as organizations and services declare it. */
export const fundingField = z.array(Funding).optional().describe('Sources of funding.');
