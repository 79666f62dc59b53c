import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Uri, Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** A document someone must bring or send to use a service. */
export const RequiredDocument = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the required document.'),
    service_id: Uuid.describe('Identifier of the service that requires the document.').optional(),
    document: z.string().describe('The document required.').optional(),
    uri: Uri.describe('Where the document or a form for it can be found.').optional(),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A document required to use a service.');
