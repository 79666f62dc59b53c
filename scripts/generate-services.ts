// Writes N synthetic full HSDS services as NDJSON, deterministically for a given seed.
// Usage: npx tsx scripts/generate-services.ts --count 100000 [--seed 1] [--out file.ndjson]
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { serviceNdjsonChunks } from './generator/ndjson-chunks.ts';

// Writes wait for 'drain' when the destination is slower than the generator, which keeps memory constant.
async function writeServices(output: Writable, count: number, seed: number): Promise<void> {
  for (const chunk of serviceNdjsonChunks(count, seed)) {
    if (!output.write(chunk)) await once(output, 'drain');
  }
}

function positiveInteger(value: string, name: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0)
    throw new Error(`--${name} must be a non-negative integer, got ${value}`);
  return parsed;
}

const { values } = parseArgs({
  options: {
    count: { type: 'string' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
  },
});
if (values.count === undefined) {
  console.error('Usage: npx tsx scripts/generate-services.ts --count N [--seed S] [--out file.ndjson]');
  process.exit(2);
}
const count = positiveInteger(values.count, 'count');
const seed = positiveInteger(values.seed, 'seed');

const output: Writable = values.out ? createWriteStream(values.out) : process.stdout;
// A closed pipe (e.g. `| head`) simply ends the run.
output.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
await writeServices(output, count, seed);
output.end();
await once(output, 'finish');
