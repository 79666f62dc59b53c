import type { Collection, Document, Filter } from 'mongodb';
import { pageHeader, type PageHeader } from '../http/paging.ts';
import type { ListRequest } from './list-parameters.ts';

/** A page of a management list: the core protocol's list header, and the items in `contents`. */
export type Page<Item> = PageHeader & { contents: Item[] };

/**
 * One page of the records of `collection` that match both `scope` (what the caller may see) and the
 * request, each shown through `view`.
 */
export async function pagedList<Stored extends Document, Item>(
  collection: Collection<Stored>,
  scope: Filter<Stored>,
  request: ListRequest,
  view: (stored: Stored) => Item,
): Promise<Page<Item>> {
  const filter = { $and: [scope, request.filter] } as Filter<Stored>;
  const [total, records] = await Promise.all([
    collection.countDocuments(filter),
    collection
      .find(filter, { projection: { _id: 0 } })
      .sort(request.sort)
      .skip((request.page - 1) * request.perPage)
      .limit(request.perPage)
      .toArray(),
  ]);
  const contents = records.map((record) => view(record as Stored));
  return { ...pageHeader(total, request.page, request.perPage, contents.length), contents };
}
