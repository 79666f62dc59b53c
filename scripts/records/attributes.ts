import type { Attribute, TaxonomyTerm } from '../hsds/types.ts';
import type { NewId } from '../hsds/uuid.ts';
import { taxonomyOf } from '../sample/taxonomy.ts';

/** What a term says about the record it is attached to: `link_type` values of our open codelist. */
export type LinkType = 'category' | 'audience';

export interface AttributeLink {
  /** The HSDS table of the record the attribute belongs to, e.g. service or location. */
  entity: 'service' | 'organization' | 'location';
  id: string;
  type: LinkType;
}

export function attributeFor(term: TaxonomyTerm, link: AttributeLink, newId: NewId): Attribute {
  return {
    id: newId(`attribute/${term.code}`),
    link_id: link.id,
    taxonomy_term_id: term.id,
    link_type: link.type,
    link_entity: link.entity,
    taxonomy_term: { ...term, taxonomy_detail: taxonomyOf(term) },
  };
}

/** The link type of a term: audience terms describe who it is for, every other term what it is. */
export function linkTypeOf(term: TaxonomyTerm): LinkType {
  return term.code.startsWith('AUD-') ? 'audience' : 'category';
}
