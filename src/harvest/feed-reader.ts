import { relations } from '../hsds/entities.ts';
import type { InputRecord } from '../ingest/input-record.ts';
import type { RecordType } from '../ingest/record-type.ts';
import { readNdjson } from '../ingest/sources/ndjson.ts';
import { FeedUnreadable, type FeedAnswer, type FeedClient } from './feed-client.ts';

/** What reading a feed found out, besides its records: filled in as it reads. */
export interface FeedReading {
  /** How the services were read: one NDJSON stream, pages of full records, or each record alone. */
  servicesBy?: 'ndjson' | 'full pages' | 'records';
  /** Endpoints skipped (an OPTIONAL one the feed does not serve). */
  warnings: string[];
  /** What stopped the reading part-way: the feed was not read whole. */
  unreadable?: string;
}

/** Items asked for a page; the feed may give fewer, and its `total_pages` says how many pages follow. */
const PER_PAGE = 100;

/** The optional endpoints read after the services, each as the record type its items are. */
const OPTIONAL: readonly [string, RecordType][] = [
  ['organizations', 'organization'],
  ['taxonomies', 'taxonomy'],
  ['taxonomy_terms', 'taxonomy_term'],
];

/** Fields of a full service that a list item leaves out: a page with any of them gives full records. */
const NESTED_LISTS = relations.service.filter((relation) => relation.kind === 'many').map((r) => r.field);

/**
 * Reads an HSDS 3.0 API as import input: its root (a 3.x `version`, or it is no HSDS 3 feed), then its
 * services, as one NDJSON stream of full records where the feed answers `format=ndjson`, else as pages of
 * `full=true` when the pages carry full records, else each listed service's `/services/{id}` (the two
 * endpoints the specification requires); then its organizations, taxonomies and taxonomy terms where it
 * serves them. `modifiedAfter` limits the services to those changed since. A feed that stops answering
 * part-way ends the input with an unreadable record (so a replace deletes nothing) and `unreadable` set.
 */
export async function* readFeed(
  client: FeedClient,
  base: URL,
  { modifiedAfter }: { modifiedAfter?: string },
  reading: FeedReading,
): AsyncGenerator<InputRecord> {
  const at = (path: string, query: Record<string, string | number> = {}) => {
    const url = new URL(path.replace(/^\//, ''), base.href.endsWith('/') ? base : `${base.href}/`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
    return url;
  };
  try {
    const root = json(await client.get(at('')), at('').href);
    const version = (root as { version?: unknown }).version;
    if (typeof version !== 'string' || !/^3\./.test(version))
      throw new FeedUnreadable(
        at('').href,
        `not an HSDS 3 API (its root gives version ${JSON.stringify(version)})`,
      );
    const since = modifiedAfter === undefined ? {} : { modified_after: modifiedAfter };
    yield* readServices(client, at, since, reading);
    for (const [path, type] of OPTIONAL) {
      const first = await client.get(at(path, { page: 1, per_page: PER_PAGE, full: 'true' }));
      if (first.status === 404) {
        reading.warnings.push(`${at(path).href} answered 404: skipped (an optional endpoint)`);
        continue;
      }
      for await (const { url, items } of pages(
        client,
        (page) => at(path, { page, per_page: PER_PAGE, full: 'true' }),
        first,
      ))
        yield* items.map((value, index) => ({
          source: { file: url, index },
          value: importable(type, value),
          type,
        }));
    }
  } catch (error) {
    if (!(error instanceof FeedUnreadable)) throw error;
    reading.unreadable = error.message;
    yield { source: { file: error.url }, error: `the feed could not be read: ${error.message}` };
  }
}

async function* readServices(
  client: FeedClient,
  at: (path: string, query?: Record<string, string | number>) => URL,
  since: { modified_after?: string },
  reading: FeedReading,
): AsyncGenerator<InputRecord> {
  const stream = at('services', { format: 'ndjson', full: 'true', ...since });
  const streamed = await client.stream(stream, 'application/x-ndjson');
  try {
    if (streamed.status === 200 && NDJSON_TYPES.has(streamed.type)) {
      reading.servicesBy = 'ndjson';
      try {
        for await (const record of readNdjson(streamed.body, stream.href))
          yield { ...record, type: 'service' };
      } catch (error) {
        throw new FeedUnreadable(stream.href, `the stream broke off (${(error as Error).message})`);
      }
      return;
    }
  } finally {
    streamed.close();
  }
  const page = (number: number) =>
    at('services', { page: number, per_page: PER_PAGE, full: 'true', ...since });
  for await (const { url, items } of pages(client, page)) {
    const full = items.some((item) =>
      NESTED_LISTS.some((field) => Array.isArray((item as Record<string, unknown>)[field])),
    );
    reading.servicesBy ??= full ? 'full pages' : 'records';
    if (reading.servicesBy === 'full pages') {
      yield* items.map((value, index) => ({ source: { file: url, index }, value, type: 'service' as const }));
      continue;
    }
    // Each record of the page, fetched at once (as many at a time as the client allows), in order.
    const records = await Promise.all(
      items.map(async (item) => {
        const id = (item as { id?: unknown }).id;
        if (typeof id !== 'string') return { source: { file: url }, error: 'a listed service has no id' };
        const record = at(`services/${encodeURIComponent(id)}`);
        return {
          source: { file: record.href },
          value: json(await client.get(record), record.href),
          type: 'service' as const,
        };
      }),
    );
    yield* records;
  }
}

/**
 * The pages of a list, following `total_pages` as each page gives it (whatever `per_page` the feed
 * honours), until one past the last or an empty one.
 */
async function* pages(
  client: FeedClient,
  page: (number: number) => URL,
  first?: FeedAnswer,
): AsyncGenerator<{ url: string; items: unknown[] }> {
  for (let number = 1; ; number++) {
    const url = page(number);
    const answer = number === 1 && first ? first : await client.get(url);
    const body = json(answer, url.href) as { contents?: unknown; total_pages?: unknown };
    if (!Array.isArray(body.contents)) throw new FeedUnreadable(url.href, 'the page has no `contents` list');
    if (body.contents.length > 0) yield { url: url.href, items: body.contents };
    const total = typeof body.total_pages === 'number' ? body.total_pages : number;
    if (body.contents.length === 0 || number >= total) return;
  }
}

/** The JSON body of a 200; anything else leaves the feed unread. */
function json(answer: FeedAnswer, url: string): unknown {
  if (answer.status !== 200) throw new FeedUnreadable(url, `answered ${answer.status}`);
  try {
    return JSON.parse(answer.text);
  } catch {
    throw new FeedUnreadable(url, 'the body is not JSON');
  }
}

/** An organization as served lists its services by id: they come from `/services`, not from here. */
function importable(type: RecordType, value: unknown): unknown {
  if (type !== 'organization' || typeof value !== 'object' || value === null) return value;
  const { services: _services, ...organization } = value as Record<string, unknown>;
  return organization;
}

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/jsonl', 'application/jsonlines']);
