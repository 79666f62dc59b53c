/** Appended to text cut at the size limit, so a reader knows it is not the whole. */
export const TRUNCATED = '…[truncated]';

/**
 * `text` cut to at most `limitBytes` bytes of UTF-8 (never splitting a character), marked when cut. Meta
 * entries keep bodies for auditing, not archiving: the limit keeps every entry small.
 */
export function truncateText(text: string, limitBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limitBytes) return text;
  let end = limitBytes;
  // Back up over continuation bytes (10xxxxxx) to the start of the character the limit falls in.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8') + TRUNCATED;
}
