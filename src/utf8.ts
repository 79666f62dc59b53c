import { isUtf8 } from 'node:buffer';

/**
 * The offset in `bytes` of the first one that starts no well-formed UTF-8 character between `from` and
 * `to` (overlong forms, surrogates and code points past U+10FFFF are not; a character cut off by `to` is
 * not either), or -1.
 */
export function scanUtf8(bytes: Uint8Array, from: number, to: number): number {
  let at = from;
  while (at < to) {
    const lead = bytes[at]!;
    if (lead < 0x80) {
      at += 1;
      continue;
    }
    // The bytes that follow and the range of the first of them (Unicode's table 3-7).
    let following: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) following = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      following = 2;
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      following = 3;
      if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    } else return at;
    if (at + following >= to) return at;
    for (let next = 1; next <= following; next += 1) {
      const byte = bytes[at + next]!;
      if (byte < low || byte > high) return at;
      low = 0x80;
      high = 0xbf;
    }
    at += following + 1;
  }
  return -1;
}

/** The offset of the first byte of `bytes` that is not UTF-8, or -1 (checked natively first: most are). */
export const firstInvalidUtf8 = (bytes: Uint8Array): number =>
  isUtf8(bytes) ? -1 : scanUtf8(bytes, 0, bytes.length);

/**
 * What holding an unpaired surrogate is: a `\ud800`-style escape without its pair is valid JSON but no
 * Unicode text (RFC 8259 §8.2): stored as UTF-8 it would become U+FFFD, and strict clients refuse it as
 * served. An import rejects such a record, a JSON request body is a 400.
 */
export const UNPAIRED_SURROGATE =
  'an unpaired surrogate (a \\uD800-\\uDFFF escape not in a pair): it is not Unicode text';
