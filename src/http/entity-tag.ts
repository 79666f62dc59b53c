import { createHash } from 'node:crypto';

/** A strong ETag for exact response bytes. */
export const entityTag = (bytes: string | Buffer) =>
  `"${createHash('sha1').update(bytes).digest('base64url')}"`;
