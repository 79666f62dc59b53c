/**
 * Full-text search by keywords: a document stores the distinct words of its searchable text, a query
 * matches documents holding all of its words. Words are lower-cased and stripped of accents, so "Café"
 * matches "cafe"; an index on the word list answers the query without scanning.
 */
export function keywordsOf(...texts: unknown[]): string[] {
  const words = new Set<string>();
  for (const text of texts) if (typeof text === 'string') for (const word of wordsIn(text)) words.add(word);
  return [...words];
}

export function wordsIn(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
