import type { Code, ObjectId, Timestamp } from 'bson';
import { Binary, BSONRegExp, BSONSymbol, Long, type Document } from 'bson';
import { numericValue, typeRank, TypeRank } from '../compare.ts';

/**
 * Index keys as bytes whose order (memcmp, which is how LMDB orders keys) is MongoDB's order of the
 * values (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/), and which are equal
 * exactly when MongoDB's index holds the values equal: numbers by value whatever their BSON type, null and
 * missing alike. Each value starts with its type's rank, and every encoding is self-delimiting, so a
 * compound key is its fields' encodings one after another.
 *
 * Departures, documented in the README: numbers compare as doubles (two 64-bit integers above 2^53 that
 * round to one double share a key: lookups still filter them apart), strings by their UTF-8 bytes (as
 * MongoDB without a collation), JavaScript code by its source.
 */
export function encodeKey(values: readonly unknown[]): Buffer {
  const writer = new KeyWriter();
  for (const value of values) writer.value(value);
  return writer.bytes();
}

/** LMDB's key size limit with 4 KiB pages is 1978 bytes; longer keys are cut, with a mark, to this. */
export const MAX_KEY_BYTES = 1900;
const TRUNCATED_MARK = 0xff;

/** The key as stored: cut to `MAX_KEY_BYTES` (then marked) when longer; `truncated` says so. */
export function storedKey(values: readonly unknown[]): { key: Buffer; truncated: boolean } {
  const key = encodeKey(values);
  if (key.length <= MAX_KEY_BYTES) return { key, truncated: false };
  const cut = Buffer.allocUnsafe(MAX_KEY_BYTES + 1);
  key.copy(cut, 0, 0, MAX_KEY_BYTES);
  cut[MAX_KEY_BYTES] = TRUNCATED_MARK;
  return { key: cut, truncated: true };
}

class KeyWriter {
  private buffer = Buffer.allocUnsafe(64);
  private length = 0;

  bytes(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  private byte(b: number): void {
    this.reserve(1);
    this.buffer[this.length++] = b;
  }

  private raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A string's UTF-8 bytes with 0x00 escaped as 0x00 0xFF, ended by 0x00 0x00: shorter sorts first. */
  private string(value: string): void {
    // At most 3 bytes per UTF-16 unit; escapes only where the string holds NUL characters.
    this.reserve(value.length * 3 + 2);
    if (value.includes('\0')) {
      for (const b of Buffer.from(value, 'utf8')) {
        this.reserve(2);
        this.buffer[this.length++] = b;
        if (b === 0) this.buffer[this.length++] = 0xff;
      }
    } else {
      this.length += this.buffer.write(value, this.length, 'utf8');
    }
    this.reserve(2);
    this.buffer[this.length++] = 0;
    this.buffer[this.length++] = 0;
  }

  /** A double in 8 bytes that sort as the numbers do; NaN below every number, -0 equal to 0. */
  private double(n: number): void {
    this.reserve(8);
    if (Number.isNaN(n)) {
      this.buffer.fill(0, this.length, this.length + 8);
    } else {
      this.buffer.writeDoubleBE(n === 0 ? 0 : n, this.length);
      if (n > 0 || n === 0) this.buffer[this.length]! |= 0x80;
      else for (let i = 0; i < 8; i++) this.buffer[this.length + i] = ~this.buffer[this.length + i]! & 0xff;
    }
    this.length += 8;
  }

  private uint64(high: number, low: number): void {
    this.reserve(8);
    this.buffer.writeUInt32BE(high >>> 0, this.length);
    this.buffer.writeUInt32BE(low >>> 0, this.length + 4);
    this.length += 8;
  }

  value(value: unknown): void {
    const rank = typeRank(value);
    // Ranks from 1, so that 0 can end an object or array before any further element.
    this.byte(rank + 1);
    switch (rank) {
      case TypeRank.MinKey:
      case TypeRank.Null:
      case TypeRank.MaxKey:
        return;
      case TypeRank.Number:
        return this.double(Number(numericValue(value)));
      case TypeRank.String:
        return this.string(value instanceof BSONSymbol ? value.value : (value as string));
      case TypeRank.Object:
        for (const [name, element] of Object.entries(value as Document)) {
          if (element === undefined) continue;
          // MongoDB compares an element's type before its name.
          this.byte(typeRank(element) + 1);
          this.string(name);
          this.value(element);
        }
        return this.byte(0);
      case TypeRank.Array:
        for (const element of value as unknown[]) this.value(element);
        return this.byte(0);
      case TypeRank.Binary: {
        const binary = value instanceof Binary ? value : new Binary(value as Uint8Array);
        const bytes = binary.value();
        // By length, then subtype, then bytes, as MongoDB compares BinData.
        this.reserve(5);
        this.buffer.writeUInt32BE(bytes.length, this.length);
        this.buffer[this.length + 4] = binary.sub_type;
        this.length += 5;
        return this.raw(bytes);
      }
      case TypeRank.ObjectId:
        return this.raw((value as ObjectId).id);
      case TypeRank.Boolean:
        return this.byte(value ? 1 : 0);
      case TypeRank.Date: {
        const time = (value as Date).getTime();
        const long = Long.fromNumber(Number.isNaN(time) ? 0 : time);
        // Flipping the sign bit orders two's complement numbers as unsigned ones.
        return this.uint64(long.high ^ 0x80000000, long.low);
      }
      case TypeRank.Timestamp: {
        const timestamp = value as Timestamp;
        return this.uint64(timestamp.high, timestamp.low);
      }
      case TypeRank.RegExp: {
        const regex = value instanceof BSONRegExp ? value : (value as RegExp);
        this.string(regex instanceof BSONRegExp ? regex.pattern : regex.source);
        return this.string(regex instanceof BSONRegExp ? regex.options : regex.flags);
      }
      case TypeRank.Code:
        return this.string((value as Code).code);
    }
  }
}
