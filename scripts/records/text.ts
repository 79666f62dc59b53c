/** Lower-case words joined by hyphens, for URL paths and email local parts. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** An instant written in local time with its UTC offset, e.g. 2025-03-01T09:30:00-08:00. */
export function withUtcOffset(isoInstant: string, utcOffsetHours: number): string {
  const local = new Date(Date.parse(isoInstant) + utcOffsetHours * 3_600_000).toISOString().slice(0, 19);
  const sign = utcOffsetHours < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.abs(utcOffsetHours)).padStart(2, '0')}:00`;
}
