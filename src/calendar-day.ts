/** Whether `day` (`YYYY-MM-DD`) is a day that exists: `Date` silently rolls 2026-02-30 over to March 2. */
export function isCalendarDay(day: string): boolean {
  const midnight = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(midnight.getTime()) && midnight.toISOString().slice(0, 10) === day;
}
