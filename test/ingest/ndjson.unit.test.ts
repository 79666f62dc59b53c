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

/** Bytes (or text, as UTF-8) cut into chunks of `size` bytes: lines, characters and CRLFs split anywhere. */
const inChunks = (text: string | Buffer, size: number): Buffer[] => {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
};

describe('reading NDJSON', () => {
  it('reads LF, CRLF and CR lines, blank lines and a last line without a break, however the bytes arrive', async () => {
    const text = '{"name":"Café Ñandú"}\r\n\n{"n":2}\n  \r\n{"n":3}\r{"n":4}\r\r{"n":5}';
    const expected = [
      { source: { file: 'in.ndjson', line: 1 }, text: '{"name":"Café Ñandú"}' },
      { source: { file: 'in.ndjson', line: 3 }, text: '{"n":2}' },
      { source: { file: 'in.ndjson', line: 5 }, text: '{"n":3}' },
      { source: { file: 'in.ndjson', line: 6 }, text: '{"n":4}' },
      { source: { file: 'in.ndjson', line: 8 }, text: '{"n":5}' },
    ];
    for (let size = 1; size <= Buffer.byteLength(text); size += 1) {
      expect(await read(inChunks(text, size)), `chunks of ${size} bytes`).toEqual(expected);
    }
  });

  it('drops the byte order mark of files joined end to end, opening any line', async () => {
    const text = '\uFEFF{"n":1}\r\n\uFEFF{"n":2}\n{"n":3}\n\uFEFF\n';
    expect(await read(inChunks(text, 3))).toEqual([
      { source: { file: 'in.ndjson', line: 1 }, text: '{"n":1}' },
      { source: { file: 'in.ndjson', line: 2 }, text: '{"n":2}' },
      { source: { file: 'in.ndjson', line: 3 }, text: '{"n":3}' },
    ]);
  });

  it('rejects a line longer than the limit without holding it, and reads the lines after it', async () => {
    const long = `{"padding":"${'x'.repeat(500)}"}`;
    const text = `{"n":1}\n${long}\n{"n":3}\n${long}`;
    // The limit is on the record, not its line break: a CRLF line of exactly the limit is read.
    const exactly = `{"padding":"${'x'.repeat(100 - 14)}"}`;
    expect(exactly).toHaveLength(100);
    expect((await read([`${exactly}\r\n`], 100))[0]).toMatchObject({ text: exactly });
    expect(await read(inChunks(text, 64), 100)).toEqual([
      { source: { file: 'in.ndjson', line: 1 }, text: '{"n":1}' },
      {
        source: { file: 'in.ndjson', line: 2 },
        error: 'the line is longer than 100 bytes: too large for a record',
      },
      { source: { file: 'in.ndjson', line: 3 }, text: '{"n":3}' },
      {
        source: { file: 'in.ndjson', line: 4 },
        error: 'the line is longer than 100 bytes: too large for a record',
      },
    ]);
  });
});

describe('reading NDJSON that is not UTF-8', () => {
  it('rejects a line with bytes that are not UTF-8 alone, naming the offset in the input, however the bytes arrive', async () => {
    // Latin-1 é (0xE9) on line 3, after a byte order mark and a CRLF line, with UTF-8 characters around it.
    const text = Buffer.concat([
      Buffer.from('\uFEFF{"name":"Café"}\r\n{"n":2}\n{"name":"Caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}\r\n{"name":"😀"}'),
    ]);
    expect(text.indexOf(0xe9)).toBe(41);
    const expected = [
      { source: { file: 'in.ndjson', line: 1 }, text: '{"name":"Café"}' },
      { source: { file: 'in.ndjson', line: 2 }, text: '{"n":2}' },
      { source: { file: 'in.ndjson', line: 3 }, error: 'invalid UTF-8 at byte 41' },
      { source: { file: 'in.ndjson', line: 4 }, text: '{"name":"😀"}' },
    ];
    for (let size = 1; size <= text.length; size += 1) {
      expect(await read(inChunks(text, size)), `chunks of ${size} bytes`).toEqual(expected);
    }
  });

  it('refuses UTF-16 and UTF-32 whole, with one error naming the encoding, with a byte order mark or without', async () => {
    const text = '{"n":1}\n{"n":2}\n';
    const cases: [Buffer, string][] = [
      [Buffer.from(`\uFEFF${text}`, 'utf16le'), 'UTF-16LE'],
      [Buffer.from(text, 'utf16le'), 'UTF-16LE'],
      [Buffer.from(`\uFEFF${text}`, 'utf16le').swap16(), 'UTF-16BE'],
      [Buffer.from(text, 'utf16le').swap16(), 'UTF-16BE'],
      [Buffer.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0]), 'UTF-32LE'],
      [Buffer.from([0, 0, 0, 0x7b, 0, 0, 0, 0x7d]), 'UTF-32BE'],
    ];
    for (const [bytes, encoding] of cases) {
      expect(await read(inChunks(bytes, 3)), encoding).toEqual([
        {
          source: { file: 'in.ndjson' },
          error: `the file is ${encoding}, not UTF-8: convert it to UTF-8 first (e.g. iconv -f ${encoding} -t UTF-8)`,
        },
      ]);
    }
  });
});
