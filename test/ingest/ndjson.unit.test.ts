import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InputRecord } from '../../src/ingest/input-record.ts';
import { readNdjson } from '../../src/ingest/sources/ndjson.ts';

async function read(chunks: (string | Buffer)[], maxLineBytes?: number): Promise<InputRecord[]> {
  const records: InputRecord[] = [];
  for await (const record of readNdjson(Readable.from(chunks), 'in.ndjson', maxLineBytes))
    records.push(record);
  return records;
}

/** The text cut into chunks of `size` bytes: lines, characters and CRLFs split anywhere. */
const inChunks = (text: string, size: number): Buffer[] => {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
};

describe('reading NDJSON', () => {
  it('reads LF, CRLF and CR lines, blank lines and a last line without a break, however the bytes arrive', async () => {
    const text = '{"name":"Café Ñandú"}\r\n\n{"n":2}\n  \r\n{"n":3}\r{"n":4}\r\r{"n":5}';
    const expected = [
      { source: { file: 'in.ndjson', line: 1 }, value: { name: 'Café Ñandú' } },
      { source: { file: 'in.ndjson', line: 3 }, value: { n: 2 } },
      { source: { file: 'in.ndjson', line: 5 }, value: { n: 3 } },
      { source: { file: 'in.ndjson', line: 6 }, value: { n: 4 } },
      { source: { file: 'in.ndjson', line: 8 }, value: { n: 5 } },
    ];
    for (let size = 1; size <= Buffer.byteLength(text); size += 1) {
      expect(await read(inChunks(text, size)), `chunks of ${size} bytes`).toEqual(expected);
    }
  });

  it('rejects a line longer than the limit without holding it, and reads the lines after it', async () => {
    const long = `{"padding":"${'x'.repeat(500)}"}`;
    const text = `{"n":1}\n${long}\n{"n":3}\n${long}`;
    // The limit is on the record, not its line break: a CRLF line of exactly the limit is read.
    const exactly = `{"padding":"${'x'.repeat(100 - 14)}"}`;
    expect(exactly).toHaveLength(100);
    expect((await read([`${exactly}\r\n`], 100))[0]).toMatchObject({
      value: { padding: expect.any(String) },
    });
    expect(await read(inChunks(text, 64), 100)).toEqual([
      { source: { file: 'in.ndjson', line: 1 }, value: { n: 1 } },
      {
        source: { file: 'in.ndjson', line: 2 },
        error: 'the line is longer than 100 bytes: too large for a record',
      },
      { source: { file: 'in.ndjson', line: 3 }, value: { n: 3 } },
      {
        source: { file: 'in.ndjson', line: 4 },
        error: 'the line is longer than 100 bytes: too large for a record',
      },
    ]);
  });
});
