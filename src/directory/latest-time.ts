/** The latest of these times (stored dates; anything else is no time), if any. */
export function latestTime(...times: unknown[]): Date | undefined {
  let found: Date | undefined;
  for (const time of times)
    if (time instanceof Date && !Number.isNaN(time.getTime()) && (!found || time > found)) found = time;
  return found;
}
