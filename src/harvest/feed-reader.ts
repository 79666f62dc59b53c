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

/** What a list's pages may be asked besides `page`, in the order tried while the feed answers 400. */
type Asked = Record<string, string | number>;
/**
 * Whole records and pages of PER_PAGE, else whole records at the feed's own page size (it may refuse
 * `per_page`), else for an optional list nothing more (the official document gives `full` only to
 * services, organizations and services at location: a strict feed may refuse it on the others).
 */
const SERVICE_PAGES: readonly Asked[] = [{ per_page: PER_PAGE, full: 'true' }, { full: 'true' }];
const OPTIONAL_PAGES: readonly Asked[] = [...SERVICE_PAGES, {}];

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
      const list = (page: number, asked: Asked) => at(path, { page, ...asked });
      try {
        for await (const { url, items } of pages(client, list, OPTIONAL_PAGES, { optional: true }))
          yield* items.map((value, index) => ({
            source: { file: url, index },
            value: importable(type, value),
            type,
          }));
      } catch (error) {
        if (!(error instanceof NotOffered)) throw error;
        reading.warnings.push(`${at(path).href} answered ${error.status}: skipped (an optional endpoint)`);
        // Not a list of none: a replace must not take the source's records of this type for gone.
        yield { source: { file: at(path).href }, unreadList: type };
      }
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
  // Asked once: a feed that does not stream (whatever it answers) is read by pages.
  const streamed = await client
    .stream(stream, 'application/x-ndjson', { once: true })
    .catch((error: unknown) => {
      if (error instanceof FeedUnreadable) return undefined;
      throw error;
    });
  try {
    if (streamed?.status === 200 && NDJSON_TYPES.has(streamed.type)) {
      reading.servicesBy = 'ndjson';
      let last: InputRecord | undefined;
      try {
        for await (const record of readNdjson(streamed.body, stream.href)) {
          last = record;
          yield { ...record, type: 'service' };
        }
      } catch (error) {
        throw new FeedUnreadable(stream.href, `the stream broke off (${(error as Error).message})`);
      }
      if (last?.text !== undefined && !parses(last.text))
        throw new FeedUnreadable(stream.href, 'the stream ended in the middle of a record');
      return;
    }
  } finally {
    streamed?.close();
  }
  const page = (number: number, asked: Asked) => at('services', { page: number, ...asked, ...since });
  for await (const { url, items } of pages(client, page, SERVICE_PAGES)) {
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
        // A record gone since the list (404), or unreadable, is rejected alone; a feed that stops
        // answering (every attempt failed) stops the reading.
        const answer = await client.get(record);
        try {
          return {
            source: { file: record.href },
            value: json(answer, record.href),
            type: 'service' as const,
          };
        } catch (error) {
          return { source: { file: record.href }, error: (error as FeedUnreadable).message };
        }
      }),
    );
    yield* records;
  }
}

/**
 * The pages of a list, asked as the first of `askings` the feed does not refuse with a 400 on the first
 * page, and followed by the `total_pages` each gives, whatever `per_page` it honours; without one, until a
 * short or empty page. A list that cannot be trusted whole (an empty page before the last, the same page
 * again, an item given again on a later page, or fewer or more items than the first page's `total_items`)
 * makes the feed unreadable. An item given twice is what paging by offset gives when a record moves in the
 * list's order while it is read: another is then skipped, though the count is right. Its ids are kept to
 * tell (~100 bytes each: a list of 100,000 takes ~10 MB while it is read).
 * `optional`: a first page answering that the list is not offered, or refusing every asking, throws
 * NotOffered.
 */
async function* pages(
  client: FeedClient,
  list: (page: number, asked: Asked) => URL,
  askings: readonly Asked[],
  { optional = false } = {},
): AsyncGenerator<{ url: string; items: unknown[] }> {
  let asked = askings[0]!;
  let announced: number | undefined;
  let firstSize = 0;
  let read = 0;
  let previous = '';
  const given = new Set<string>();
  for (let number = 1; ; number++) {
    let url = list(number, asked);
    let answer = await client.get(url);
    if (number === 1) {
      if (optional && NOT_OFFERED.has(answer.status)) throw new NotOffered(answer.status);
      for (const next of askings.slice(1)) {
        if (answer.status !== 400) break;
        asked = next;
        url = list(number, asked);
        answer = await client.get(url);
      }
      if (optional && answer.status === 400) throw new NotOffered(answer.status);
    }
    const body = json(answer, url.href) as {
      contents?: unknown;
      total_pages?: unknown;
      total_items?: unknown;
    };
    if (!Array.isArray(body.contents)) throw new FeedUnreadable(url.href, 'the page has no `contents` list');
    const items: unknown[] = body.contents;
    const total = typeof body.total_pages === 'number' ? body.total_pages : undefined;
    if (number === 1) {
      announced = typeof body.total_items === 'number' ? body.total_items : undefined;
      firstSize = items.length;
    }
    if (items.length === 0) {
      if (total !== undefined && number <= total)
        throw new FeedUnreadable(url.href, `page ${number} is empty, though the list has ${total} pages`);
      break;
    }
    const ids = JSON.stringify(items.map((item) => (item as { id?: unknown }).id));
    if (ids === previous) throw new FeedUnreadable(url.href, 'the same page again: the list does not page');
    previous = ids;
    for (const item of items) {
      const id = (item as { id?: unknown }).id;
      if (typeof id !== 'string') continue;
      if (given.has(id))
        throw new FeedUnreadable(
          url.href,
          `item ${JSON.stringify(id)} again on page ${number}: the list changed while it was read (another may have been skipped)`,
        );
      given.add(id);
    }
    read += items.length;
    yield { url: url.href, items };
    if (total !== undefined ? number >= total : items.length < firstSize) break;
  }
  if (announced !== undefined && read !== announced)
    throw new FeedUnreadable(list(1, asked).href, `${read} items read of the ${announced} announced`);
}

/** The answers that say a list is not offered at all: an OPTIONAL endpoint the feed leaves out. */
const NOT_OFFERED = new Set([404, 405, 410, 501]);

class NotOffered extends Error {
  constructor(readonly status: number) {
    super(`answered ${status}`);
  }
}

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

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
