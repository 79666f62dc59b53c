import { createHash } from 'node:crypto';

/** A strong ETag for exact response bytes. */
export const entityTag = (bytes: string | Buffer) =>
  `"${createHash('sha1').update(bytes).digest('base64url')}"`;

/**
 * The tag of the same content sent with a content coding (`"…"` → `"….gzip"`): a strong tag names exact
 * bytes, so the gzip and the identity forms must not share one (RFC 9110 8.8.3). `.` never occurs in our
 * tags (base64url), so the coding can always be told apart.
 */
export const codedEntityTag = (tag: string, coding: string) => `${tag.slice(0, -1)}.${coding}"`;

/**
 * The tag of the content, whatever coding among those we send (compression.ts) the tag was sent with; a
 * tag with any other suffix is not one of ours and names no content.
 */
export const contentEntityTag = (tag: string) => tag.replace(/\.(?:gzip|br|deflate)"$/, '"');
