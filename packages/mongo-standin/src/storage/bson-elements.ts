/**
 * Walking the top-level elements of stored BSON by their lengths, without decoding them: what the reads of
 * a few fields (field-subset.ts) and the layout of large documents (record-parts.ts) share.
 */

/**
 * Not a BSON type: in the head of a document whose large fields are kept apart (record-parts.ts), the
 * element standing for one of them, its name and no value.
 */
export const KEPT_APART = 0x20;

/** A Buffer over the same memory. */
export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A BSON document of `elements`, followed by `trailing` zero bytes. */
export function documentOf(elements: readonly Buffer[], trailing = 0): Buffer {
  const size = 4 + elements.reduce((sum, element) => sum + element.length, 0) + 1;
  const bytes = Buffer.allocUnsafe(size + trailing);
  bytes.writeInt32LE(size, 0);
  let offset = 4;
  for (const element of elements) offset += element.copy(bytes, offset);
  return bytes.fill(0, offset);
}

/** The position of the 0 ending the name of the element starting at `start`. */
export function nameEnd(bytes: Buffer, start: number): number {
  let end = start + 1;
  while (end < bytes.length && bytes[end] !== 0) end++;
  return end;
}

/** The position after the element starting at `start`, whose name ends at `end` (see nameEnd). */
export function elementEnd(bytes: Buffer, start: number, end: number): number {
  const type = bytes[start]!;
  return end + 1 + (type === KEPT_APART ? 0 : valueLength(bytes, type, end + 1));
}

/** The length of an element's value of BSON `type` starting at `at`. */
function valueLength(bytes: Buffer, type: number, at: number): number {
  switch (type) {
    case 0x01: // double
    case 0x09: // date
    case 0x11: // timestamp
    case 0x12: // int64
      return 8;
    case 0x02: // string
    case 0x0d: // JavaScript code
    case 0x0e: // symbol
      return 4 + bytes.readInt32LE(at);
    case 0x03: // document
    case 0x04: // array
    case 0x0f: // code with scope
      return bytes.readInt32LE(at);
    case 0x05: // binary: length, subtype, bytes
      return 5 + bytes.readInt32LE(at);
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      return 0;
    case 0x07: // ObjectId
      return 12;
    case 0x08: // boolean
      return 1;
    case 0x0b: {
      // regular expression: two C strings
      const patternEnd = bytes.indexOf(0, at);
      return bytes.indexOf(0, patternEnd + 1) + 1 - at;
    }
    case 0x0c: // DBPointer: string, then an ObjectId
      return 4 + bytes.readInt32LE(at) + 12;
    case 0x10: // int32
      return 4;
    case 0x13: // decimal128
      return 16;
    default:
      throw new Error(`unknown BSON type 0x${type.toString(16)} in a stored document`);
  }
}
