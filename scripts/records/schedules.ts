import type { Schedule } from '../hsds/types.ts';
import type { NewId } from '../hsds/uuid.ts';
import type { OpeningHours } from '../sample/opening-hours.ts';

/** HSDS schedules for opening hours in local time; `timezone` carries the standard UTC offset. */
export function schedulesFor(
  hours: OpeningHours[],
  utcOffset: number,
  validFrom: string,
  newId: NewId,
): Schedule[] {
  return hours.map((entry, index) => ({
    id: newId(`schedule/${index}`),
    valid_from: validFrom,
    freq: entry.freq,
    interval: 1,
    wkst: 'MO',
    byday: entry.byday,
    opens_at: `${entry.opensAt}:00`,
    closes_at: `${entry.closesAt}:00`,
    timezone: utcOffset,
    description: entry.description,
  }));
}
