import type { Collection, Db } from 'mongodb';
import { SOURCE_LOADS } from '../db/collections.ts';
import { notFound } from '../http/problem.ts';
import { sourceRecordCounts, type SourceLoad, type StoredSource } from '../db/source-records.ts';
import type { ListFields, ListRequest } from './list-parameters.ts';
import { pagedList, type Page } from './paged-list.ts';

/** A source as the management mount shows it: its loads, and the records it loaded, by entity type. */
export interface SourceView {
  name: string;
  first_started_at: string;
  last_started_at: string;
  /** The last load that finished; null while none has. */
  last_load: SourceLoad | null;
  /** Records the source loaded as records of their own (not only nested in others), by entity type. */
  records: Record<string, number>;
}

export const sourceListFields: ListFields = {
  searched: ['name'],
  filterable: ['name'],
  sortable: ['name', 'last_started_at', 'first_started_at'],
};

/** The sources imports have loaded for (read-only: a source exists once an import names it). */
export class SourceStore {
  private readonly sources: Collection<StoredSource>;

  constructor(private readonly db: Db) {
    this.sources = db.collection<StoredSource>(SOURCE_LOADS);
  }

  async list(request: ListRequest): Promise<Page<SourceView>> {
    const page = await pagedList(this.sources, {}, request, (source) => source);
    return { ...page, contents: await Promise.all(page.contents.map((source) => this.viewOf(source))) };
  }

  async get(name: string): Promise<SourceView> {
    const source = await this.sources.findOne({ _id: name });
    if (!source) throw notFound(`No source named ${JSON.stringify(name)} has been loaded.`);
    return this.viewOf(source);
  }

  /** The source with its records counted, from the index on each row collection's sources. */
  private async viewOf({
    name,
    first_started_at,
    last_started_at,
    last_load,
  }: StoredSource): Promise<SourceView> {
    const counts = await sourceRecordCounts(this.db, name);
    const records = Object.fromEntries([...counts].filter(([, count]) => count > 0));
    return { name, first_started_at, last_started_at, last_load: last_load ?? null, records };
  }
}
