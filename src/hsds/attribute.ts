import * as z from 'zod';
import { Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';
import { TaxonomyTerm } from './taxonomy_term.ts';

/** A link from any record to a taxonomy term, classifying it (optionally with a value). */
export const Attribute = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the attribute.'),
    link_id: Uuid.describe('Identifier of the record this attribute classifies.').optional(),
    taxonomy_term_id: Uuid.describe('Identifier of the taxonomy term applied.').optional(),
    link_type: z.string().describe('How the term relates to the linked record.').optional(),
    link_entity: z.string().describe('Kind of record linked, e.g. service.').optional(),
    value: z.string().describe('A value for the term, when the term needs one.').optional(),
    // Not in the shared 3.0 schema; the spec (part 9) lists `label` among the current additions.
    label: z.string().describe('Human-readable label for the value.').optional(),
    taxonomy_term: TaxonomyTerm.optional().describe('The taxonomy term applied.'),
    metadata: metadataField,
  })
  .describe('A classification of a record by a taxonomy term.');

/** The `attributes` field as every HSDS object declares it. */
export const attributesField = z
  .array(Attribute)
  .optional()
  .describe('Classifications of this record by taxonomy terms.');
