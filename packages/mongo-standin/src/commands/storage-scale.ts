import type { Document } from 'bson';
import { badValue } from '../errors.ts';

/** The `scale` of dbStats and collStats: sizes are divided by it (its integer part), rounded down. */
export function storageScale(body: Document): (bytes: number) => number {
  const raw = body.scale ?? 1;
  const scale = Math.trunc(Number(raw));
  if (!Number.isFinite(scale) || scale < 1) throw badValue('Scale factor must be greater than zero');
  return (bytes) => Math.floor(bytes / scale);
}
