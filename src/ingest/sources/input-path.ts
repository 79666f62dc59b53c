import { stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { InputRecord } from '../input-record.ts';
import { readJsonFile } from './json-file.ts';
import { readNdjson, readNdjsonFile } from './ndjson.ts';
import { DATA_PACKAGE_FILE, readTabularPackage } from './tabular.ts';

/** How a path names standard input. */
export const STDIN_PATH = '-';

const NDJSON_EXTENSIONS = new Set(['.ndjson', '.jsonl']);

/**
 * Reads whatever a path holds, by its form: a tabular-form folder (one holding datapackage.json) or its
 * datapackage.json, an NDJSON / JSON Lines file, a JSON file, or `-` for NDJSON on standard input.
 * Anything else is one error record, so the report says which path was not read and why.
 */
export async function* readInputPath(path: string): AsyncGenerator<InputRecord> {
  if (path === STDIN_PATH) {
    yield* readNdjson(process.stdin, 'stdin');
    return;
  }
  const kind = await kindOf(path);
  if (kind === 'tabular') yield* readTabularPackage(path);
  else if (kind === 'ndjson') yield* readNdjsonFile(path);
  else if (kind === 'json') yield* readJsonFile(path);
  else yield { source: { file: path }, error: kind.error };
}

async function kindOf(path: string): Promise<'tabular' | 'ndjson' | 'json' | { error: string }> {
  const found = await stat(path).catch(() => undefined);
  if (!found) return { error: 'no such file or folder' };
  if (found.isDirectory()) {
    const hasPackage = await stat(join(path, DATA_PACKAGE_FILE)).then(
      (descriptor) => descriptor.isFile(),
      () => false,
    );
    return hasPackage
      ? 'tabular'
      : { error: `a folder is read as the tabular form, which needs a ${DATA_PACKAGE_FILE} in it` };
  }
  if (basename(path) === DATA_PACKAGE_FILE) return 'tabular';
  const extension = extname(path).toLowerCase();
  if (NDJSON_EXTENSIONS.has(extension)) return 'ndjson';
  if (extension === '.json') return 'json';
  return {
    error: `cannot tell how to read it: expected a folder with ${DATA_PACKAGE_FILE}, a ${DATA_PACKAGE_FILE}, .ndjson, .jsonl or .json`,
  };
}
