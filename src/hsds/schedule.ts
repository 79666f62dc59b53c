import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { IsoDate, IsoTime, Uri, Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** RFC 5545 recurrence frequencies the official schema allows. */
export const ScheduleFrequency = z.enum(['WEEKLY', 'MONTHLY']).describe('How often the event recurs.');

/** RFC 5545 weekday codes. */
export const Weekday = z.enum(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']);

/** When a service or location is open, as an RFC 5545 recurrence rule plus opening hours. */
export const Schedule = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the schedule.'),
    service_id: Uuid.describe('Identifier of the service this schedule is for.').optional(),
    location_id: Uuid.describe('Identifier of the location this schedule is for.').optional(),
    service_at_location_id: Uuid.describe(
      'Identifier of the service at location this schedule is for.',
    ).optional(),
    valid_from: IsoDate.describe('First date the schedule applies.').optional(),
    valid_to: IsoDate.describe('Last date the schedule applies.').optional(),
    dtstart: IsoDate.describe('Date of the first event of the recurrence.').optional(),
    // A number in the official schema (an offset from UTC), not an IANA zone name.
    timezone: z.number().describe('Time zone of the opening hours, as an offset from UTC.').optional(),
    until: IsoDate.describe('Date after which the recurrence stops.').optional(),
    count: z.number().describe('Number of times the event recurs.').optional(),
    wkst: Weekday.describe('Day the week starts on.').optional(),
    freq: ScheduleFrequency.optional(),
    interval: z.number().describe('Number of freq periods between events.').optional(),
    byday: z.string().describe('Comma-separated weekdays the event falls on, e.g. MO,TU.').optional(),
    byweekno: z.string().describe('Comma-separated week numbers the event falls in.').optional(),
    bymonthday: z.string().describe('Comma-separated days of the month the event falls on.').optional(),
    byyearday: z.string().describe('Comma-separated days of the year the event falls on.').optional(),
    description: z.string().describe('The schedule in words.').optional(),
    opens_at: IsoTime.describe(
      'Opening time, HH:MM:SS (or HH:MM), with its offset from UTC (Z, or e.g. -05:00) where given.',
    ).optional(),
    closes_at: IsoTime.describe(
      'Closing time, HH:MM:SS (or HH:MM), with its offset from UTC (Z, or e.g. -05:00) where given; at or ' +
        'before the opening time, the next day.',
    ).optional(),
    schedule_link: Uri.describe('Where to book or see availability.').optional(),
    // Free text in the official schema; no allowed values are fixed.
    attending_type: z.string().describe('How to attend, e.g. in person, by phone, online.').optional(),
    notes: z.string().describe('Further notes, e.g. about holidays.').optional(),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('When a service or location is open.');

/** The `schedules` field as every owner of schedules declares it. */
export const schedulesField = z.array(Schedule).optional().describe('Opening schedules.');
