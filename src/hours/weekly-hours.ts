/**
 * When a record is open, from its HSDS schedules, as the opening filters ask it (`open_at`, `day` with
 * `time`, `open_now`): weekly sessions in minutes of the week, Monday 00:00 being 0, derived at import and
 * stored with each document, so that a query compares numbers instead of reading schedules.
 *
 * Understood: weekly schedules (`freq` WEEKLY with `byday`, or without it on `dtstart`'s weekday; or no
 * `freq` with `byday`), `interval` 1 or none, no `count`, with `opens_at` and `closes_at` (a closing
 * at or before the opening closes the next day; equal ones are a whole day), in force from `valid_from`
 * (and `dtstart`) to `valid_to` (and `until`), local dates inclusive. The time zone is an offset on
 * `opens_at`/`closes_at` (`09:00-05:00`, `Z`), else the schedule's numeric `timezone` (hours from UTC); a
 * schedule with neither is kept in local time, and a query places it in the server's default zone
 * (HSDS_DEFAULT_TIMEZONE), so that changing that needs no rebuild. Any other schedule (monthly, yearly,
 * fortnightly, counted, without times) is not understood: it never makes a record open.
 */
import { isCalendarDay } from '../calendar-day.ts';

/** Minutes in a week. */
export const WEEK = 7 * 24 * 60;
const DAY = 24 * 60;
export const DAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type DayCode = (typeof DAY_CODES)[number];

/**
 * The slots of the week the index keys name (see openKey): three hours each, so that a record open through
 * the working week holds about fifteen keys, not forty.
 */
const SLOT_MINUTES = 180;
/**
 * The offsets a time zone may have, in minutes: whole quarter hours from UTC−12:00 to UTC+14:00 (every
 * zone in use). A query asks for each one; a schedule at another offset is not understood.
 */
export const OFFSETS: readonly number[] = Array.from({ length: 105 }, (_, index) => -720 + index * 15);

/** The key prefix of sessions in no stated zone (placed in the server's default one when asked). */
export const ZONELESS = 'local';

/** A session of the week, in minutes [s, e), 0 ≤ s < e ≤ WEEK. */
export interface Session {
  s: number;
  e: number;
}

/** A session in UTC minutes of the week, in force from the instant `from` until `to` (excluded). */
export interface UtcSession extends Session {
  from: Date;
  to: Date;
}

/** A session in local minutes of a zone the schedule does not say, in force on local dates `from` to `to`. */
export interface ZonelessSession extends Session {
  from: string;
  to: string;
}

/** What a document stores for the opening filters: absent for a record never open by its schedules. */
export interface OpeningFields {
  /**
   * `<offset>:<slot>` of every local three-hour slot a session reaches (`local:<slot>` where no zone is
   * stated): what the index answers.
   */
  _open_keys: string[];
  /** Local sessions, for `day` and `time` (dates not considered). */
  _open_local: Session[];
  /** UTC sessions of schedules in a stated zone, with the instants they are in force, for `open_at`. */
  _open_utc?: UtcSession[];
  /** Local sessions of schedules in no stated zone, with the local dates they are in force, for `open_at`. */
  _open_zoneless?: ZonelessSession[];
}

/** The earliest and latest instants a validity may leave open: BSON dates, compared as such. */
const FOREVER_BEFORE = new Date('0001-01-01T00:00:00Z');
const FOREVER_AFTER = new Date('9999-12-31T00:00:00Z');
/** The same, as local dates, compared as strings. */
export const FIRST_DATE = '0000-01-01';
export const LAST_DATE = '9999-12-31';

/**
 * A session, or the part of one past local midnight (`late` 1), which is in force when the day the
 * session began was: a schedule's Sunday night session is not open on the Monday morning it starts to be
 * in force.
 */
interface Piece extends Session {
  late: 0 | 1;
}

/** One schedule's sessions and the zone and dates they are in. */
interface WeeklySchedule {
  /** Minutes from UTC; null: not stated. */
  offset: number | null;
  sessions: Piece[];
  /** Local dates (YYYY-MM-DD) it is in force, inclusive; undefined: unbounded. */
  from?: string;
  to?: string;
}

/**
 * The opening fields of a record with these schedules; undefined when none is understood (a schedule in a
 * form not understood is valid HSDS, and no warning: the profile says what is understood).
 */
export function openingFields(schedules: readonly Record<string, unknown>[]): OpeningFields | undefined {
  const keys = new Set<string>();
  const local: Session[] = [];
  const utc: UtcSession[] = [];
  const zoneless: ZonelessSession[] = [];
  for (const schedule of schedules) {
    const weekly = weeklySchedule(schedule);
    if (!weekly) continue;
    const { offset, sessions, from = FIRST_DATE, to = LAST_DATE } = weekly;
    if (from > to) continue;
    for (const { s, e, late } of sessions) {
      local.push({ s, e });
      for (let slot = slotOf(s); slot * SLOT_MINUTES < e; slot++) keys.add(`${offset ?? ZONELESS}:${slot}`);
      if (offset === null) {
        zoneless.push({
          s,
          e,
          from: from === FIRST_DATE ? from : dayAfter(from, late),
          to: to === LAST_DATE ? to : dayAfter(to, late),
        });
        continue;
      }
      const start = from === FIRST_DATE ? FOREVER_BEFORE : localMidnight(from, offset, late);
      const end = to === LAST_DATE ? FOREVER_AFTER : localMidnight(to, offset, 1 + late);
      for (const shifted of wrapped(s - offset, e - offset)) utc.push({ ...shifted, from: start, to: end });
    }
  }
  if (local.length === 0) return undefined;
  return {
    _open_keys: [...keys],
    _open_local: local,
    ...(utc.length > 0 ? { _open_utc: utc } : {}),
    ...(zoneless.length > 0 ? { _open_zoneless: zoneless } : {}),
  };
}

const slotOf = (minute: number) => Math.floor(minute / SLOT_MINUTES);

/** The index key of a local minute of the week in a zone (`offset` minutes from UTC, or ZONELESS). */
export const openKey = (offset: number | typeof ZONELESS, localMinute: number): string =>
  `${offset}:${slotOf(localMinute)}`;

/** The minute of the week of an instant, in UTC shifted by `offset` minutes. */
export function minuteOfWeek(instant: Date, offset = 0): number {
  const shifted = new Date(instant.getTime() + offset * 60_000);
  const weekday = (shifted.getUTCDay() + 6) % 7;
  return weekday * DAY + shifted.getUTCHours() * 60 + shifted.getUTCMinutes();
}

/** The local date (YYYY-MM-DD) of an instant in a zone `offset` minutes from UTC. */
export const localDate = (instant: Date, offset: number): string =>
  new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 10);

/** A session [start, end) in minutes, shifted by any amount, as sessions within one week. */
function wrapped(start: number, end: number): Session[] {
  const s = ((start % WEEK) + WEEK) % WEEK;
  const e = s + (end - start);
  return e <= WEEK
    ? [{ s, e }]
    : [
        { s, e: WEEK },
        { s: 0, e: e - WEEK },
      ];
}

/** The local date `days` after `date`. */
const dayAfter = (date: string, days: number) =>
  days === 0
    ? date
    : new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY * 60_000).toISOString().slice(0, 10);

/** The instant a local date begins (`days` later), in a zone `offset` minutes from UTC. */
const localMidnight = (date: string, offset: number, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY * 60_000 - offset * 60_000);

const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([zZ]|[+-]\d{2}(?::?\d{2})?)?$/;
const DATE = /^(\d{4}-\d{2}-\d{2})/;
const DATE_FIELDS = ['valid_from', 'valid_to', 'dtstart', 'until'] as const;

/** A schedule as weekly sessions in its zone; undefined when it is not understood. */
function weeklySchedule(schedule: Record<string, unknown>): WeeklySchedule | undefined {
  const freq = typeof schedule.freq === 'string' ? schedule.freq.trim().toUpperCase() : undefined;
  const byday = typeof schedule.byday === 'string' ? schedule.byday : undefined;
  // Monthly, yearly, fortnightly, counted, or no rule at all.
  const weekly = freq === 'WEEKLY' || (freq === undefined && byday !== undefined);
  if (!weekly || (schedule.interval != null && schedule.interval !== 1) || schedule.count != null)
    return undefined;
  if (DATE_FIELDS.some((field) => schedule[field] != null && dateOf(schedule[field]) === undefined))
    return undefined;
  const opens = typeof schedule.opens_at === 'string' ? TIME.exec(schedule.opens_at.trim()) : null;
  const closes = typeof schedule.closes_at === 'string' ? TIME.exec(schedule.closes_at.trim()) : null;
  if (!opens || !closes) return undefined;
  // Times in two different zones: not one session (and no publisher means that).
  if (opens[4] && closes[4] && parseOffset(opens[4]) !== parseOffset(closes[4])) return undefined;
  const open = secondsOf(opens);
  const close = secondsOf(closes);
  const offset = zoneOffset(opens[4] ?? closes[4], schedule.timezone);
  if (open >= DAY * 60 || close >= DAY * 60 || offset === undefined) return undefined;
  const dtstart = dateOf(schedule.dtstart);
  let days: number[];
  if (byday !== undefined) {
    const codes = byday.split(',').map((code) => code.trim().toUpperCase());
    days = codes.map((code) => DAY_CODES.indexOf(code as DayCode));
    if (days.some((day) => day < 0)) return undefined;
  } else if (dtstart !== undefined) days = [(new Date(`${dtstart}T00:00:00Z`).getUTCDay() + 6) % 7];
  else return undefined;
  // Closing at or before opening: the next day (an evening past midnight); at the same time, a whole day.
  // In whole minutes, a closing time with seconds closes at the end of its minute.
  const start = Math.floor(open / 60);
  const end = Math.ceil((close > open ? close : close + DAY * 60) / 60);
  const sessions = [...new Set(days)].flatMap((day) => {
    const pieces: Piece[] = [];
    const midnight = (day + 1) * DAY;
    const [from, to] = [day * DAY + start, day * DAY + end];
    for (const session of wrapped(from, Math.min(to, midnight))) pieces.push({ ...session, late: 0 });
    if (to > midnight) for (const session of wrapped(midnight, to)) pieces.push({ ...session, late: 1 });
    return pieces;
  });
  return {
    offset,
    sessions,
    from: latest(dateOf(schedule.valid_from), dtstart),
    to: earliest(dateOf(schedule.valid_to), dateOf(schedule.until)),
  };
}

const secondsOf = (time: RegExpExecArray) =>
  Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3] ?? 0);

/**
 * Minutes from UTC: the time's own offset, else the schedule's `timezone` in hours; null when neither
 * says; undefined for an offset no zone has.
 */
function zoneOffset(suffix: string | undefined, timezone: unknown): number | null | undefined {
  let minutes: number;
  if (suffix !== undefined) minutes = parseOffset(suffix)!;
  else if (typeof timezone === 'number' && Number.isFinite(timezone)) minutes = timezone * 60;
  else return null;
  // `+ 0`: a timezone of -0 is the key 0.
  return OFFSETS.includes(minutes) ? minutes + 0 : undefined;
}

/** `Z`, `+05`, `-0530`, `+05:30` as minutes from UTC; undefined for anything else. */
export function parseOffset(text: string): number | undefined {
  if (/^z$/i.test(text)) return 0;
  const match = /^([+-])(\d{2})(?::?(\d{2}))?$/.exec(text);
  if (!match) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** A real calendar date's YYYY-MM-DD, the start of an ISO 8601 date or date-time. */
function dateOf(value: unknown): string | undefined {
  const day = typeof value === 'string' ? DATE.exec(value.trim())?.[1] : undefined;
  return day !== undefined && isCalendarDay(day) ? day : undefined;
}

const latest = (a?: string, b?: string) => (a === undefined ? b : b === undefined || a > b ? a : b);
const earliest = (a?: string, b?: string) => (a === undefined ? b : b === undefined || a < b ? a : b);
