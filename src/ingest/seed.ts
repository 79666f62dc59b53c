import { fileURLToPath } from 'node:url';
import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import { hasDirectoryDocuments } from '../db/collections.ts';
import { importRecords } from './import.ts';
import { readJsonFile } from './sources/json-file.ts';
import { SAMPLE_SOURCE } from './source-name.ts';

/** The sample directory, in load order: taxonomies before the terms and records that use them. */
const SAMPLE_FILES = ['taxonomies.json', 'taxonomy_terms.json', 'organizations.json'].map((name) =>
  fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url)),
);

/**
 * Loads the sample directory (`fixtures/`) into a database without directory data; one holding any record
 * (an organization, a taxonomy, …, not only services) is left alone: sample data must never mix with a
 * real directory.
 */
export async function seedSampleData(db: Db, logger: Logger): Promise<void> {
  if (await hasDirectoryDocuments(db)) {
    logger.debug('database has directory data; not seeding');
    return;
  }
  const report = await importRecords(db, sampleRecords(), { source: SAMPLE_SOURCE });
  logger.info(
    {
      inserted: report.inserted,
      rejected: report.rejected,
      warnings: report.warningCount,
      ms: report.durationMs,
    },
    'loaded the sample directory',
  );
}

async function* sampleRecords() {
  for (const file of SAMPLE_FILES) yield* readJsonFile(file);
}
