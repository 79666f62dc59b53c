import type { Db, Document } from 'mongodb';
import { documentCollection } from '../db/collections.ts';
import { searchTermsIn } from '../search/keywords.ts';
import { termAndDescendants } from './taxonomy-descendants.ts';

/** The filters the core list endpoints share; each endpoint passes the parameters it takes. */
export interface FilterParameters {
  search?: string;
  taxonomy_term_id?: string;
  taxonomy_id?: string;
  organization_id?: string;
  modified_after?: Date;
}

/** Where a resource keeps what the shared filters look at. */
export interface FilterFields {
  organizationId?: string;
}

/** The MongoDB filter for the shared parameters, all of them ANDed (spec 4.1 rule 3). */
export async function sharedFilter(
  db: Db,
  parameters: FilterParameters,
  fields: FilterFields,
): Promise<Document> {
  const clauses: Document[] = [];
  if (parameters.search !== undefined) clauses.push(searchClause(parameters.search));
  if (parameters.taxonomy_term_id !== undefined) {
    clauses.push({ _terms: { $in: await termAndDescendants(db, parameters.taxonomy_term_id) } });
  }
  if (parameters.taxonomy_id !== undefined) clauses.push({ _taxonomies: parameters.taxonomy_id });
  if (parameters.organization_id !== undefined && fields.organizationId) {
    clauses.push({ [fields.organizationId]: parameters.organization_id });
  }
  if (parameters.modified_after !== undefined)
    clauses.push({ _modified: { $gte: parameters.modified_after } });
  return and(clauses);
}

/**
 * Every term of the search must be among the document's terms (case- and accent-insensitive, in plain
 * spelling, any form of the word: see searchTermsIn). A search without a word (`!!`, `🍔`) matches nothing, as a
 * search box would show it: no record has such a term.
 */
export function searchClause(search: string): Document {
  const words = searchTermsIn(search);
  if (words.length === 0) return MATCHES_NOTHING;
  return and(words.map((terms) => ({ _search: terms.length === 1 ? terms[0] : { $in: terms } })));
}

/** An indexed condition no document meets. */
const MATCHES_NOTHING: Document = { _search: { $in: [] } };

export const and = (clauses: Document[]): Document =>
  clauses.length === 0 ? {} : clauses.length === 1 ? clauses[0]! : { $and: clauses };

/**
 * Organizations classified by a term (or taxonomy): by their own attributes or by any service they provide,
 * which is what someone browsing organizations by category expects.
 */
export async function organizationClassification(db: Db, parameters: FilterParameters): Promise<Document[]> {
  const clauses: Document[] = [];
  const services = db.collection(documentCollection.service);
  if (parameters.taxonomy_term_id !== undefined) {
    const terms = await termAndDescendants(db, parameters.taxonomy_term_id);
    const providers = await services.distinct('organization.id', { _terms: { $in: terms } });
    clauses.push({ $or: [{ _terms: { $in: terms } }, { id: { $in: providers } }] });
  }
  if (parameters.taxonomy_id !== undefined) {
    const providers = await services.distinct('organization.id', { _taxonomies: parameters.taxonomy_id });
    clauses.push({ $or: [{ _taxonomies: parameters.taxonomy_id }, { id: { $in: providers } }] });
  }
  return clauses;
}
