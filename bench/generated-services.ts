import { writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { serviceNdjsonChunks } from '../scripts/generator/ndjson-chunks.ts';
import type { ImportReport } from '../src/ingest/report.ts';
import { readNdjson } from '../src/ingest/sources/ndjson.ts';

/** `count` generated services (scripts/generator) as NDJSON through the real reader, as an import reads them. */
export const generatedRecords = (count: number, seed: number) =>
  readNdjson(Readable.from(serviceNdjsonChunks(count, seed)), 'generated.ndjson');

/**
 * Writes `count` generated services (scripts/generator) as an NDJSON file. The first N services of a seed
 * are the same whatever the count: a file of fewer holds the first lines of one of more.
 */
export const writeGeneratedNdjson = (file: string, count: number, seed: number) =>
  writeFile(file, serviceNdjsonChunks(count, seed));

/** Throws unless the import inserted every service and rejected nothing. */
export function checkReport(report: ImportReport, count: number): void {
  if (report.rejected === 0 && report.inserted === count) return;
  const shown = report.rejections.slice(0, 5).map((rejection) => `  ${JSON.stringify(rejection)}`);
  throw new Error(
    [`import of ${count} services: ${report.inserted} inserted, ${report.rejected} rejected`, ...shown].join(
      '\n',
    ),
  );
}

/** Throws unless an import of services already stored, as they are, found every one unchanged and wrote nothing. */
export function checkUnchanged(report: ImportReport, count: number): void {
  const documentsWritten = Object.values(report.documentsWritten).reduce(
    (sum, documents) => sum + documents,
    0,
  );
  if (
    report.unchanged === count &&
    report.inserted === 0 &&
    report.updated === 0 &&
    report.rejected === 0 &&
    documentsWritten === 0
  )
    return;
  throw new Error(
    `re-import of ${count} unchanged services: ${report.unchanged} unchanged, ${report.inserted} inserted, ` +
      `${report.updated} updated, ${report.rejected} rejected, ${documentsWritten} documents written`,
  );
}
