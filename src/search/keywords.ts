import { stemmer } from 'stemmer';

/**
 * Full-text search by keywords: a document stores the distinct terms of its searchable text, a query
 * matches documents holding all of its terms. A term is a word lower-cased and stripped of accents, so
 * "Café" matches "cafe", with letters Unicode does not decompose spelled in plain Latin letters as people
 * type them without the key ("Straße" as "strasse", "Łódź" as "lodz", "Søndergade" as "sondergade"), then
 * reduced to its stem (Porter's English stemmer), so that word forms match: "shelters" finds "shelter",
 * "immigrant" finds "immigrants", "counselling" finds "counseling". An index on the term list answers the
 * query without scanning.
 */
export function keywordsOf(...texts: unknown[]): string[] {
  const terms = new Set<string>();
  for (const text of texts) if (typeof text === 'string') for (const term of termsIn(text)) terms.add(term);
  return [...terms];
}

/** Letters with no decomposition into a base letter and a mark, and what they are typed as. */
const PLAIN_SPELLING: Record<string, string> = {
  ß: 'ss',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
  ħ: 'h',
};
const UNDECOMPOSED = new RegExp(`[${Object.keys(PLAIN_SPELLING).join('')}]`, 'gu');

const plainSpelling = (word: string) => word.replace(UNDECOMPOSED, (letter) => PLAIN_SPELLING[letter]!);

/** An apostrophe inside a word (`veteran's`, `O’Brien`): the word is one, not two. */
const INNER_APOSTROPHE = /(?<=[\p{L}\p{N}])['\u2019\u02bc](?=[\p{L}\p{N}])/gu;

/**
 * The words of a text, lower-cased, without accents and in plain spelling; a word with an apostrophe is
 * one word without it (`veteran's` is `veterans`, found as `veterans` and `veteran` are, not `veteran`
 * and `s`).
 */
export const wordsIn = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(INNER_APOSTROPHE, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(plainSpelling);

/**
 * Texts whose terms were worked out lately, with them: an import derives the same texts again and again (a
 * service's name and description for each of its services at location, an organization's name for each of
 * its services, a city for each address in it). Two generations: once the newer holds RECENT_CHARACTERS of
 * text it becomes the older, and the older is let go, so what was used lately stays and memory is bounded
 * (a few MiB) in a server that imports now and then.
 */
let recentTerms = new Map<string, readonly string[]>();
let olderTerms = new Map<string, readonly string[]>();
let recentCharacters = 0;
const RECENT_CHARACTERS = 1024 * 1024;
/** Longer texts (a long description) are not kept: they would crowd out many short ones. */
const LONGEST_KEPT = 16 * 1024;

/** The search terms of a text: its words (as `wordsIn` gives them) reduced to their stems, as stored. */
export function termsIn(text: string): readonly string[] {
  let terms = recentTerms.get(text);
  if (terms) return terms;
  terms = olderTerms.get(text) ?? wordsIn(text).map(stemmer);
  if (text.length > LONGEST_KEPT) return terms;
  if (recentCharacters + text.length > RECENT_CHARACTERS) {
    olderTerms = recentTerms;
    recentTerms = new Map();
    recentCharacters = 0;
  }
  recentTerms.set(text, terms);
  recentCharacters += text.length;
  return terms;
}

/**
 * What a search asks for: for each of its words, the terms any of which a document must hold. Its stem,
 * and the word itself where they differ: documents derived before terms were stemmed hold words whole,
 * and still answer a search for their own words until `npm run rebuild` derives them again (see
 * docs/operations.md, Upgrading). Both are looked up in the index.
 */
export function searchTermsIn(text: string): string[][] {
  const alternatives = new Map<string, Set<string>>();
  for (const word of wordsIn(text)) {
    const stem = stemmer(word);
    const terms = alternatives.get(stem) ?? alternatives.set(stem, new Set([stem])).get(stem)!;
    terms.add(word);
  }
  return [...alternatives.values()].map((terms) => [...terms]);
}
