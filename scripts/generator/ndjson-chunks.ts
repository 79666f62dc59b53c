import { ServiceGenerator } from './service-lines.ts';

// Lines are joined into chunks of about this size so that each write (or stream chunk) carries many
// services rather than one.
const CHUNK_BYTES = 1 << 20;

/** `count` generated services as NDJSON text, each line ending in a newline, in chunks of whole lines. */
export function* serviceNdjsonChunks(count: number, seed: number): Generator<string> {
  let chunk = '';
  for (const line of new ServiceGenerator(seed).lines(count)) {
    chunk += `${line}\n`;
    if (chunk.length >= CHUNK_BYTES) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
