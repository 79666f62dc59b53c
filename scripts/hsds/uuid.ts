import { createHash } from 'node:crypto';

/** Supplies the id of each record a builder creates; `key` names the record within its owner, so that
 * fixture ids can be derived from it while the generator may ignore it. */
export type NewId = (key: string) => string;

// Our own namespace for name-based (v5) ids: fixture ids depend only on the names we give records.
const SAMPLE_NAMESPACE = Buffer.from('6f1d3c2a9b8e4d7f8a5c0e1b2d3f4a5b', 'hex');

function formatUuid(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** RFC 4122 version 5 uuid of `name` in our sample namespace. */
export function stableId(name: string): string {
  const hash = createHash('sha1').update(SAMPLE_NAMESPACE).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return formatUuid(bytes);
}

/** Ids derived from `scope` and each record's key: stable as long as names do not change. */
export function scopedIds(scope: string): NewId {
  return (key) => stableId(`${scope}/${key}`);
}
