import { describe, expect, it } from 'vitest';
import { minuteOfWeek, openingFields } from '../../src/hours/weekly-hours.ts';

const weekly = (fields: Record<string, unknown>) => ({ id: 'a', freq: 'WEEKLY', ...fields });

describe('opening fields', () => {
  it('split a session past Sunday midnight at the end of the week, locally and in UTC', () => {
    const fields = openingFields([
      weekly({ byday: 'SU', opens_at: '22:00', closes_at: '02:00', timezone: -1 }),
    ]);
    const sunday = 6 * 1440;
    expect(fields?._open_local).toEqual([
      { s: sunday + 1320, e: 10080 },
      { s: 0, e: 120 },
    ]);
    // 22:00 at UTC−1 is 23:00 UTC: one hour before the week's end, then three after.
    expect(fields?._open_utc?.map(({ s, e }) => ({ s, e }))).toEqual([
      { s: sunday + 1380, e: 10080 },
      { s: 0, e: 60 },
      { s: 60, e: 180 },
    ]);
  });

  it('read the zone from the times, else the numeric timezone, else leave it to the server', () => {
    const keyOffsets = (schedule: Record<string, unknown>) =>
      new Set(
        openingFields([weekly({ byday: 'MO', ...schedule })])?._open_keys.map((key) => key.split(':')[0]),
      );
    expect(keyOffsets({ opens_at: '09:00-05:00', closes_at: '17:00-05:00', timezone: 3 })).toEqual(
      new Set(['-300']),
    );
    expect(keyOffsets({ opens_at: '09:00Z', closes_at: '17:00Z' })).toEqual(new Set(['0']));
    expect(keyOffsets({ opens_at: '09:00', closes_at: '17:00', timezone: 5.5 })).toEqual(new Set(['330']));
    expect(keyOffsets({ opens_at: '09:00', closes_at: '17:00', timezone: -0 })).toEqual(new Set(['0']));
    expect(keyOffsets({ opens_at: '09:00', closes_at: '17:00' })).toEqual(new Set(['local']));
  });

  it('leave out what is not a weekly schedule with both times, at a real offset', () => {
    for (const schedule of [
      weekly({ freq: 'MONTHLY', byday: '1MO', opens_at: '09:00', closes_at: '17:00' }),
      weekly({ byday: '2MO', opens_at: '09:00', closes_at: '17:00' }),
      weekly({ byday: 'MO', interval: 2, opens_at: '09:00', closes_at: '17:00' }),
      weekly({ byday: 'MO', count: 4, opens_at: '09:00', closes_at: '17:00' }),
      weekly({ byday: 'MO', opens_at: '09:00' }),
      weekly({ byday: 'MO', opens_at: '09:00', closes_at: '17:00', timezone: 5.3 }),
      weekly({ byday: 'MO', opens_at: '09:00', closes_at: '17:00', valid_from: '2026-02-30' }),
      weekly({ opens_at: '09:00', closes_at: '17:00' }),
      { id: 'b', opens_at: '09:00', closes_at: '17:00' },
    ])
      expect(openingFields([schedule]), JSON.stringify(schedule)).toBeUndefined();
    // Weekly without byday: dtstart's weekday (2026-11-25 is a Wednesday).
    expect(
      openingFields([weekly({ dtstart: '2026-11-25', opens_at: '09:00', closes_at: '10:00' })])?._open_local,
    ).toEqual([{ s: 2 * 1440 + 540, e: 2 * 1440 + 600 }]);
  });

  it('count minutes of the week from Monday 00:00, in any offset', () => {
    expect(minuteOfWeek(new Date('2026-11-23T00:00:00Z'))).toBe(0);
    expect(minuteOfWeek(new Date('2026-11-29T23:59:00Z'))).toBe(10079);
    expect(minuteOfWeek(new Date('2026-11-23T00:00:00Z'), -60)).toBe(10020);
  });
});
