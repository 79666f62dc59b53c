import { Readable } from 'node:stream';
import { serviceNdjsonChunks } from '../scripts/generator/ndjson-chunks.ts';
import type { ImportReport } from '../src/ingest/report.ts';
import { readNdjson } from '../src/ingest/sources/ndjson.ts';

/** `count` generated services (scripts/generator) as NDJSON through the real reader, as an import reads them. */
export const generatedRecords = (count: number, seed: number) =>
  readNdjson(Readable.from(serviceNdjsonChunks(count, seed)), 'generated.ndjson');

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
