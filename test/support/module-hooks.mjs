/**
 * A preload (`node --import`) for tests of what a process loads: it appends the URL of every module the
 * process resolves to the file named by RESOLVED_MODULES_FILE (if set), and answers the packages named in
 * MISSING_PACKAGES (comma-separated; their subpaths too) as Node does a package that is not installed. Its hooks run on the
 * loader's own thread, where this same file is loaded again and registers nothing.
 */
import { appendFileSync } from 'node:fs';
import process from 'node:process';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url);

const missing = new Set((process.env.MISSING_PACKAGES ?? '').split(',').filter(Boolean));

/** The package a bare specifier names: `mingo/query` is `mingo`, `@koa/router` itself. */
const packageOf = (specifier) => /^(?:@[^/]+\/)?[^/.][^/]*/.exec(specifier)?.[0];

export async function resolve(specifier, context, nextResolve) {
  const name = packageOf(specifier);
  if (name && missing.has(name)) {
    const message = `Cannot find package '${name}' imported from ${context.parentURL}`;
    throw Object.assign(new Error(message), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  const resolved = await nextResolve(specifier, context);
  if (process.env.RESOLVED_MODULES_FILE)
    appendFileSync(process.env.RESOLVED_MODULES_FILE, `${resolved.url}\n`);
  return resolved;
}
