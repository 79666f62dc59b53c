// Writes N synthetic full HSDS services as NDJSON, deterministically for a given seed.
// Usage: npx tsx scripts/generate-services.ts --count 100000 [--seed 1] [--out file.ndjson]
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { ServiceGenerator } from './generator/service-lines.ts';

// Lines are batched so that each write carries many services; writes wait for 'drain' when the
// destination is slower than the generator, which keeps memory constant.
const BATCH_BYTES = 1 << 20;

async function writeServices(output: Writable, count: number, seed: number): Promise<void> {
  let batch = '';
  for (const line of new ServiceGenerator(seed).lines(count)) {
    batch += `${line}\n`;
    if (batch.length >= BATCH_BYTES) {
      if (!output.write(batch)) await once(output, 'drain');
      batch = '';
    }
  }
  if (batch) output.write(batch);
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
