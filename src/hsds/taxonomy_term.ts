import * as z from 'zod';
import { Uri, Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';
import { Taxonomy } from './taxonomy.ts';

/** One term of a taxonomy, used to classify records through attributes. */
export const TaxonomyTerm = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the term.'),
    code: z.string().describe('Code of the term within its taxonomy.').optional(),
    name: z.string().describe('Name of the term.'),
    description: z.string().describe('What the term means.'),
    parent_id: Uuid.describe('Identifier of the parent term, for hierarchical taxonomies.').optional(),
    taxonomy: z.string().describe('Name of the taxonomy, when no taxonomy record is given.').optional(),
    taxonomy_detail: Taxonomy.optional().describe('The taxonomy the term belongs to.'),
    language: z.string().describe('Language of the term, as an ISO 639 code.').optional(),
    taxonomy_id: Uuid.describe('Identifier of the taxonomy the term belongs to.').optional(),
    term_uri: Uri.describe('Where the term is defined.').optional(),
    metadata: metadataField,
  })
  .describe('A term of a taxonomy.');
