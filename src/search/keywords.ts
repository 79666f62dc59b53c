/**
 * Full-text search by keywords: a document stores the distinct words of its searchable text, a query
 * matches documents holding all of its words. Words are lower-cased and stripped of accents, so "Café"
 * matches "cafe", and letters Unicode does not decompose are spelled in plain Latin letters as people type
 * them without the key ("Straße" as "strasse", "Łódź" as "lodz", "Søndergade" as "sondergade"); an index on
 * the word list answers the query without scanning.
 */
export function keywordsOf(...texts: unknown[]): string[] {
  const words = new Set<string>();
  for (const text of texts) if (typeof text === 'string') for (const word of wordsIn(text)) words.add(word);
  return [...words];
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

/** The words of a text, lower-cased, without accents and in plain spelling: as stored, and as searched. */
export const wordsIn = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(plainSpelling);
