/**
 * The paths the read bench asks for: found on the app (the services' ids and modification dates, the
 * taxonomy terms and how many pages of services each classifies) and drawn at random, either from a fixed
 * set (both servers then answer the same random sequence) or each one new (`unseenPaths`).
 */
import { Random } from '../scripts/generator/random.ts';
import { cities } from '../scripts/sample/cities.ts';
import { Gazetteer } from '../src/geo/gazetteer.ts';
import { fetchJson } from './http-load.ts';

export const PAGE_SIZE = 50;
/** The early page of a list (`page=7`); the deep one is at DEEP_FRACTION of its pages (page 180 of 200). */
export const EARLY_PAGE = 7;
const DEEP_FRACTION = 0.9;
/** Taxonomy terms classifying at least this many pages of services are the filters of filtered pages. */
const FILTER_MIN_PAGES = 20;
/**
 * Proximity searches asked again and again: around this many of the postcodes, each with each of the
 * radii (metres). Few, because each takes the stand-in a second or more, and the bare server is primed
 * with every one.
 */
const PROXIMITY_POSTCODES = 12;
export const PROXIMITY_RADII = [1_000, 5_000, 20_000];
/** Proximity searches no one asked before take a radius between these (whole metres). */
const UNSEEN_RADIUS_MIN = 500;
const UNSEEN_RADIUS_MAX = 20_000;
/** Fetches of the app's listings, which the stand-in answers one at a time. */
const DISCOVERY_CONCURRENCY = 4;

type Query = Record<string, string | number>;
const withQuery = (path: string, query: Query) =>
  `${path}?${new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]))}`;
/** A page of `/services` of PAGE_SIZE items, `per_page` first: `/services?per_page=50&page=7`. */
export const servicesPage = (query: Query) => withQuery('/services', { per_page: PAGE_SIZE, ...query });
export const deepPage = (pages: number) => Math.max(1, Math.round(pages * DEEP_FRACTION));
export const earlyPage = (pages: number) => Math.min(EARLY_PAGE, Math.max(1, pages));

/** Every service's id, and every service's modification time (ms since the epoch), in ascending order. */
export interface ServiceListing {
  ids: string[];
  modifiedMs: Float64Array;
}

export async function serviceListing(origin: string): Promise<ServiceListing> {
  const [listing] = await fetchJson<{ id: string; modified_date?: string }[]>(
    origin,
    ['/services?minimal=true'],
    1,
  );
  const modified = listing!.flatMap((service) =>
    service.modified_date ? [Date.parse(service.modified_date)] : [],
  );
  return { ids: listing!.map((service) => service.id), modifiedMs: Float64Array.from(modified).sort() };
}

/**
 * Filtered pages, early and deep, each of one of the taxonomy terms that classify at least
 * FILTER_MIN_PAGES pages of services (their descendants' included), or else of those that classify the
 * most.
 */
export async function filteredPages(
  origin: string,
): Promise<{ early: string[]; deep: string[]; terms: number }> {
  const [terms] = await fetchJson<{ contents: { id: string }[] }>(
    origin,
    ['/taxonomy_terms?per_page=1000'],
    1,
  );
  const ids = terms!.contents.map((term) => term.id);
  const firstPages = await fetchJson<{ total_pages: number }>(
    origin,
    ids.map((id) => servicesPage({ taxonomy_term_id: id })),
    DISCOVERY_CONCURRENCY,
  );
  const pages = ids.map((id, index) => ({ id, pages: firstPages[index]!.total_pages }));
  const most = Math.max(0, ...pages.map((term) => term.pages));
  if (most === 0) throw new Error('no taxonomy term classifies any service');
  const filters = pages.filter((term) => term.pages >= Math.min(FILTER_MIN_PAGES, most));
  return {
    early: filters.map((term) => servicesPage({ taxonomy_term_id: term.id, page: earlyPage(term.pages) })),
    deep: filters.map((term) => servicesPage({ taxonomy_term_id: term.id, page: deepPage(term.pages) })),
    terms: filters.length,
  };
}

/** The distinct postcodes of the generated data's cities that have a known centroid (needed by `proximity`). */
export function knownPostcodes(): string[] {
  const gazetteer = new Gazetteer();
  const postcodes = new Set(cities.flatMap((city) => city.zipCodes));
  return [...postcodes].filter((postcode) => gazetteer.lookup(postcode) !== undefined).sort();
}

const proximityPath = (postcode: string, metres: number) =>
  withQuery('/service_at_locations', { postcode, proximity: metres, per_page: PAGE_SIZE });

/** A first page of services at locations near PROXIMITY_POSTCODES of `postcodes`, for each of PROXIMITY_RADII. */
export const proximityPaths = (postcodes: readonly string[], seed: number) =>
  new Random(seed)
    .sample(postcodes, PROXIMITY_POSTCODES)
    .flatMap((postcode) => PROXIMITY_RADII.map((metres) => proximityPath(postcode, metres)));

/** A draw of one path from a distribution. */
export type PathDraw = (random: Random) => string;

/** A proximity search around a random postcode, of a random radius. */
export const proximityDraw =
  (postcodes: readonly string[]): PathDraw =>
  (random) =>
    proximityPath(
      random.pick(postcodes),
      UNSEEN_RADIUS_MIN + random.int(UNSEEN_RADIUS_MAX - UNSEEN_RADIUS_MIN + 1),
    );

/** The same proximity searches, of what is open at the time of each request (issue #23). */
export const openNowDraw =
  (postcodes: readonly string[]): PathDraw =>
  (random) =>
    `${proximityDraw(postcodes)(random)}&open_now=true`;

/**
 * A page of the services modified after a random time (to the millisecond, between the earliest and the
 * latest modification), a random one of the pages those services fill.
 */
export function modifiedPageDraw(modifiedMs: Float64Array): PathDraw {
  const earliest = modifiedMs[0] ?? 0;
  const latest = modifiedMs[modifiedMs.length - 1] ?? 0;
  return (random) => {
    const after = Math.floor(random.between(earliest, latest));
    const matching = modifiedMs.length - firstAtOrAfter(modifiedMs, after);
    const page = 1 + random.int(Math.max(1, Math.ceil(matching / PAGE_SIZE)));
    return servicesPage({ page, modified_after: new Date(after).toISOString() });
  };
}

/** The index of the first of the sorted `values` that is ≥ `value`. */
function firstAtOrAfter(values: Float64Array, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** An endless random sequence of `paths`, the same for each seed: what each server is asked in a run. */
export function randomPaths(paths: readonly string[], seed: number): () => string {
  const random = new Random(seed);
  return () => random.pick(paths);
}

/**
 * Paths of `draw`'s distribution, each never given before: the first ones prime the bare server, and
 * those after, which the app has never been asked, load the app.
 */
export function unseenPaths(draw: PathDraw, seed: number): () => string {
  const random = new Random(seed);
  const given = new Set<string>();
  return () => {
    for (;;) {
      const path = draw(random);
      if (!given.has(path)) {
        given.add(path);
        return path;
      }
    }
  };
}
