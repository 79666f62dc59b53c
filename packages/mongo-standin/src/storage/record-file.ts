import { crc32 } from 'node:zlib';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * Files of framed records: `[u32 length][u32 crc32][payload]`, little endian. A record that is cut
 * short or fails its checksum marks the end of the file: it is the torn tail of a write that a crash
 * interrupted, so it was never acknowledged.
 */
const HEADER_BYTES = 8;

/** The frame of a payload given in parts: its header followed by the parts. */
export function frameRecord(payload: Uint8Array[]): Uint8Array[] {
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  let length = 0;
  let checksum = 0;
  for (const part of payload) {
    length += part.length;
    checksum = crc32(part, checksum);
  }
  header.writeUInt32LE(length, 0);
  header.writeUInt32LE(checksum, 4);
  return [header, ...payload];
}

export interface ReadResult {
  payloads: Buffer[];
  /** Bytes of intact records; anything after this offset is a torn tail. */
  validBytes: number;
  totalBytes: number;
}

/** Files are read this much at a time: a file larger than a Buffer can hold is read in pieces. */
const READ_CHUNK_BYTES = 64 * 1024 * 1024;

export async function readRecords(path: string, chunkBytes = READ_CHUNK_BYTES): Promise<ReadResult> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { payloads: [], validBytes: 0, totalBytes: 0 };
    throw error;
  }
  try {
    const totalBytes = (await file.stat()).size;
    const payloads: Buffer[] = [];
    let validBytes = 0;
    // Bytes read but not yet parsed: the start of a record that continues in the next chunk.
    let pending = Buffer.alloc(0);
    for (let position = 0; position < totalBytes;) {
      // Enough for the record begun in `pending`, but never past the end of the file (a torn length
      // field may promise anything).
      const wanted = Math.min(
        Math.max(chunkBytes, recordLength(pending) - pending.length),
        totalBytes - position,
      );
      const buffer = Buffer.allocUnsafe(pending.length + wanted);
      pending.copy(buffer);
      const { bytesRead } = await file.read(buffer, pending.length, wanted, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const chunk = parseRecords(buffer.subarray(0, pending.length + bytesRead));
      // Not push(...payloads): a chunk of small records holds more than a call takes as arguments.
      for (const payload of chunk.payloads) payloads.push(payload);
      validBytes += chunk.validBytes;
      pending = buffer.subarray(chunk.validBytes, pending.length + bytesRead);
      // A record that fails its checksum ends the file even if more bytes follow.
      if (chunk.torn) break;
    }
    return { payloads, validBytes, totalBytes };
  } finally {
    await file.close();
  }
}

/** The full length of the record starting `bytes` (0 while its header is incomplete). */
const recordLength = (bytes: Buffer): number =>
  bytes.length < HEADER_BYTES ? 0 : HEADER_BYTES + bytes.readUInt32LE(0);

/** The intact records at the start of `bytes`; `torn` when a complete record fails its checksum. */
export function parseRecords(bytes: Buffer): { payloads: Buffer[]; validBytes: number; torn: boolean } {
  const payloads: Buffer[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= bytes.length) {
    const length = bytes.readUInt32LE(offset);
    const checksum = bytes.readUInt32LE(offset + 4);
    const end = offset + HEADER_BYTES + length;
    if (end > bytes.length) break;
    const payload = bytes.subarray(offset + HEADER_BYTES, end);
    if (crc32(payload) !== checksum) return { payloads, validBytes: offset, torn: true };
    payloads.push(payload);
    offset = end;
  }
  return { payloads, validBytes: offset, torn: false };
}
