import { crc32 } from 'node:zlib';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * Files of framed records: `[u32 length][u32 crc32][payload]`, little endian. A record that is cut
 * short or fails its checksum marks the end of the file: it is the torn tail of a write that a crash
 * interrupted, so it was never acknowledged.
 */
const HEADER_BYTES = 8;

export function frameRecord(payload: Uint8Array): Buffer {
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

export interface ReadResult {
  payloads: Buffer[];
  /** Bytes of intact records; anything after this offset is a torn tail. */
  validBytes: number;
  totalBytes: number;
}

export async function readRecords(path: string): Promise<ReadResult> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { payloads: [], validBytes: 0, totalBytes: 0 };
    throw error;
  }
  try {
    const bytes = await file.readFile();
    return parseRecords(bytes);
  } finally {
    await file.close();
  }
}

export function parseRecords(bytes: Buffer): ReadResult {
  const payloads: Buffer[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= bytes.length) {
    const length = bytes.readUInt32LE(offset);
    const checksum = bytes.readUInt32LE(offset + 4);
    const end = offset + HEADER_BYTES + length;
    if (end > bytes.length) break;
    const payload = bytes.subarray(offset + HEADER_BYTES, end);
    if (crc32(payload) !== checksum) break;
    payloads.push(payload);
    offset = end;
  }
  return { payloads, validBytes: offset, totalBytes: bytes.length };
}
