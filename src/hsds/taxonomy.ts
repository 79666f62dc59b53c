import * as z from 'zod';
import { Uri, Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** A published classification scheme that taxonomy terms belong to. */
export const Taxonomy = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the taxonomy.'),
    name: z.string().describe('Name of the taxonomy.'),
    description: z.string().describe('What the taxonomy classifies and who maintains it.'),
    uri: Uri.describe('Where the taxonomy is published.').optional(),
    version: z.string().describe('Version of the taxonomy used.').optional(),
    metadata: metadataField,
  })
  .describe('A classification scheme that taxonomy terms belong to.');
