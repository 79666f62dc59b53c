import * as z from 'zod';
import { DETAIL_LIMIT, type ImportReport as Report } from '../ingest/report.ts';

const count = (what: string) => z.int().min(0).describe(what);

/** How many records had each outcome (ingest/report.ts `Outcome`). */
const OutcomeCounts = z.object({
  inserted: count('Records that were new.'),
  updated: count('Records that replaced a different stored version.'),
  unchanged: count('Records identical to the stored version, left as they were.'),
  rejected: count('Records that failed validation, or could not be read.'),
});

/**
 * What an import did (ingest/report.ts), as `POST /import?wait=true` answers and the `response_body` of an
 * import's meta entry holds. No zod schema validates it (the server builds it), so it is written here,
 * typed against the report it describes.
 */
export const ImportReport: z.ZodType<Report> = OutcomeCounts.extend({
  dryRun: z.boolean().describe('Whether this was a dry run: validated and counted, nothing written.'),
  source: z
    .string()
    .describe('The source the records were loaded for (`source`; `default` when the import named none).'),
  byType: z
    .record(z.string(), OutcomeCounts)
    .describe('The counts by record type (service, organization, …).'),
  rejections: z
    .array(
      z.object({
        at: z.string().describe('Where the record is: line, array position or row.'),
        path: z.string().describe('The JSON path inside the record of what is wrong.').optional(),
        message: z.string(),
      }),
    )
    .describe(`Why records were rejected: the first ${DETAIL_LIMIT}; \`rejected\` counts them all.`),
  warnings: z.array(z.string()).describe(`The first ${DETAIL_LIMIT} warnings.`),
  warningCount: count('How many warnings there were.'),
  replace: z
    .object({
      had: count('How many records the source had before: records it loaded, of every type.'),
      missing: count('Of those, how many the input did not contain.'),
      deleted: z
        .record(z.string(), z.int().min(0))
        .describe(
          'Records deleted (in a dry run, that would be; none when refused), by entity type: the ' +
            'source’s, and what only they kept (services at location, unreferred organizations, …).',
        ),
      wouldDelete: z
        .record(z.string(), z.int().min(0))
        .optional()
        .describe(
          'When refused: what the replace would have deleted, by entity type (what `force` deletes).',
        ),
      released: count(
        'Records the source no longer loads that stay: another source loads them, or records refer to them.',
      ),
      refused: z
        .string()
        .optional()
        .describe('Why nothing was deleted: a record rejected, or too many missing without `force`.'),
    })
    .optional()
    .describe('With `mode=replace`: what the full refresh deleted, or why it deleted nothing.'),
  documentsWritten: z
    .record(z.string(), z.int().min(0))
    .describe('Nested documents (re)built, by collection.'),
  durationMs: z.number().min(0).describe('How long the import took, in milliseconds.'),
}).describe('What an import did.');
