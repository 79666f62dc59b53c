// Languages spoken by staff in the sample, with their ISO 639-1 codes.

export interface LanguageName {
  code: string;
  name: string;
}

export const languages: LanguageName[] = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Spanish' },
  { code: 'vi', name: 'Vietnamese' },
  { code: 'zh', name: 'Chinese' },
  { code: 'so', name: 'Somali' },
  { code: 'am', name: 'Amharic' },
  { code: 'ru', name: 'Russian' },
  { code: 'ko', name: 'Korean' },
  { code: 'tl', name: 'Tagalog' },
  { code: 'ar', name: 'Arabic' },
  { code: 'ht', name: 'Haitian Creole' },
  { code: 'pt', name: 'Portuguese' },
];

export function languageName(code: string): LanguageName {
  const language = languages.find((candidate) => candidate.code === code);
  if (!language) throw new Error(`Unknown language code ${code}`);
  return language;
}
