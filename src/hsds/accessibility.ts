import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Uri, Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** Provisions at a location for people with disabilities. */
export const Accessibility = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the accessibility entry.'),
    location_id: Uuid.describe('Identifier of the location.').optional(),
    description: z.string().describe('The provision, in words.').optional(),
    details: z.string().describe('Further details, e.g. measurements.').optional(),
    url: Uri.describe('Where more about the provision can be found.').optional(),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('Accessibility provisions at a location.');
