import type { Db, Document } from 'mongodb';
import { documentCollection } from '../db/collections.ts';
import type { Gazetteer } from '../geo/gazetteer.ts';
import type { RootEntity } from '../hsds/entities.ts';
import { and, organizationClassification, searchClause, sharedFilter } from './list-filters.ts';
import { openingClauses, type OpeningParameters } from './opening-filters.ts';
import type { ParameterName, UnknownParameters } from './list-params.ts';
import { postcodeQuery, type NearPoint } from './postcode-query.ts';

export interface QueryContext {
  db: Db;
  gazetteer: Gazetteer;
  /** How long a deleted record's id answers 410 (HSDS_TOMBSTONE_DAYS). */
  tombstoneDays: number;
  /** What a core endpoint does with a parameter it does not take (HSDS_UNKNOWN_PARAMETERS). */
  unknownParameters: UnknownParameters;
  /** Minutes from UTC of schedules that state no time zone (HSDS_DEFAULT_TIMEZONE). */
  defaultOffset: number;
  /** Aborted when the server shuts down: live streams end then, so that it need not wait for them. */
  stopping?: AbortSignal;
}

/** What a list request asks the database for. */
export interface ListQuery {
  filter: Document;
  near?: NearPoint;
}

/** One core resource: where it lives, what its list takes, and how that becomes a query. */
export interface Endpoint {
  path: string;
  entity: RootEntity;
  collection: string;
  parameters: readonly ParameterName[];
  query(parameters: Record<string, unknown>, context: QueryContext): Promise<ListQuery>;
}

const COMMON = ['page', 'per_page', 'format', 'search'] as const;
const CLASSIFIED = ['taxonomy_term_id', 'taxonomy_id', 'organization_id', 'modified_after', 'full'] as const;
/** Our extension: who is eligible, and what is open when (src/directory/opening-filters.ts). */
const FINDING = ['age', 'open_at', 'day', 'time', 'open_now'] as const;

/** The shared filters and the finding ones, ANDed. */
async function findingFilter(
  parameters: Record<string, unknown>,
  { db, defaultOffset }: QueryContext,
  organizationId: string,
): Promise<Document> {
  const shared = await sharedFilter(db, parameters, { organizationId });
  const opening = openingClauses(parameters as OpeningParameters, new Date(), defaultOffset);
  return and([shared, ...opening].filter(nonEmpty));
}

export const endpoints: Endpoint[] = [
  {
    path: '/services',
    entity: 'service',
    collection: documentCollection.service,
    parameters: [...COMMON, ...CLASSIFIED, ...FINDING, 'minimal'],
    query: async (parameters, context) => ({
      filter: await findingFilter(parameters, context, 'organization.id'),
    }),
  },
  {
    path: '/organizations',
    entity: 'organization',
    collection: documentCollection.organization,
    parameters: [...COMMON, 'taxonomy_term_id', 'taxonomy_id', 'full', 'full_service'],
    query: async (parameters, { db }) => {
      const clauses = await organizationClassification(db, parameters);
      if (typeof parameters.search === 'string') clauses.push(searchClause(parameters.search));
      return { filter: and(clauses) };
    },
  },
  {
    path: '/service_at_locations',
    entity: 'service_at_location',
    collection: documentCollection.service_at_location,
    parameters: [...COMMON, ...CLASSIFIED, ...FINDING, 'postcode', 'proximity'],
    query: async (parameters, context) => {
      const { gazetteer } = context;
      const shared = await findingFilter(parameters, context, 'service.organization.id');
      const postcode = postcodeQuery(
        gazetteer,
        parameters.postcode as string | undefined,
        parameters.proximity as number | undefined,
      );
      return { filter: and([shared, postcode.filter].filter(nonEmpty)), near: postcode.near };
    },
  },
  {
    path: '/taxonomies',
    entity: 'taxonomy',
    collection: documentCollection.taxonomy,
    // `full` is a rule for all core lists (spec 4.1 rule 7): whole records, their metadata included.
    parameters: [...COMMON, 'full'],
    query: async (parameters) => ({
      filter: typeof parameters.search === 'string' ? searchClause(parameters.search) : {},
    }),
  },
  {
    path: '/taxonomy_terms',
    entity: 'taxonomy_term',
    collection: documentCollection.taxonomy_term,
    parameters: [...COMMON, 'full', 'taxonomy_id', 'top_only', 'parent_id'],
    query: async (parameters) => {
      const clauses: Document[] = [];
      if (typeof parameters.search === 'string') clauses.push(searchClause(parameters.search));
      if (parameters.taxonomy_id !== undefined) {
        clauses.push({
          $or: [{ taxonomy_id: parameters.taxonomy_id }, { 'taxonomy_detail.id': parameters.taxonomy_id }],
        });
      }
      if (parameters.parent_id !== undefined) clauses.push({ parent_id: parameters.parent_id });
      // "top_only": the terms at the top of their hierarchy, those without a parent.
      if (parameters.top_only === true) clauses.push({ parent_id: { $exists: false } });
      return { filter: and(clauses) };
    },
  },
];

const nonEmpty = (filter: Document | undefined): filter is Document =>
  filter !== undefined && Object.keys(filter).length > 0;
