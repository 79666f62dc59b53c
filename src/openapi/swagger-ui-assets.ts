import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const packageDirectory = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The installed swagger-ui-dist version: it keys the assets' URLs, so a new version is fetched afresh. */
export const swaggerUiVersion = (
  JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as { version: string }
).version;

/** The files of swagger-ui-dist the reference page loads (the bundle includes the default preset). */
const contentTypes: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** Where an asset is on disk and what type it is; undefined for any other file name. */
export function swaggerUiAsset(file: string): { path: string; type: string } | undefined {
  const type = Object.hasOwn(contentTypes, file) ? contentTypes[file] : undefined;
  return type === undefined ? undefined : { path: join(packageDirectory, file), type };
}
