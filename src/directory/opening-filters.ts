import type { Document } from 'mongodb';
import { invalidParameter } from '../http/problem.ts';
import {
  DAY_CODES,
  localDate,
  minuteOfWeek,
  OFFSETS,
  openKey,
  ZONELESS,
  type DayCode,
} from '../hours/weekly-hours.ts';

/** The eligibility and opening parameters of /services and /service_at_locations (our extension). */
export interface OpeningParameters {
  age?: number;
  open_at?: Date;
  day?: DayCode;
  /** Minutes from midnight. */
  time?: number;
  open_now?: boolean;
}

/**
 * The conditions of `age`, `open_at`, `day` with `time`, and `open_now` (at `now`), each answered from a
 * field the import derived (src/hours/weekly-hours.ts, derived-fields.ts) and an index on it.
 * `defaultOffset` places the schedules that state no time zone (HSDS_DEFAULT_TIMEZONE). A question asked
 * two ways at once (`open_at` with `open_now`, or either with `day`) is a 400, as is `day` without `time`.
 */
export function openingClauses(parameters: OpeningParameters, now: Date, defaultOffset: number): Document[] {
  const clauses: Document[] = [];
  if (parameters.age !== undefined)
    clauses.push({ _age_min: { $lte: parameters.age }, _age_max: { $gte: parameters.age } });
  const { open_at: openAt, day, time, open_now: openNow = false } = parameters;
  if (openNow && openAt !== undefined)
    throw invalidParameter(
      'open_now',
      'asks what open_at asks, at the time of the request: give one of them',
    );
  // The one given is at fault: it asks nothing without the other.
  if (day !== undefined && time === undefined) throw invalidParameter('day', 'goes with time (HH:MM)');
  if (time !== undefined && day === undefined) throw invalidParameter('time', 'goes with day (MO to SU)');
  if (day !== undefined && (openAt !== undefined || openNow))
    throw invalidParameter(
      'day',
      'asks without a date what open_at and open_now ask at an instant: give one of them',
    );
  const instant = openNow ? now : openAt;
  if (instant) clauses.push(openAtClause(instant, defaultOffset));
  if (day !== undefined && time !== undefined)
    clauses.push(openOnClause(DAY_CODES.indexOf(day) * 1440 + time));
  return clauses;
}

/** Records with a session at `instant`, on a date its schedule is in force. */
function openAtClause(instant: Date, defaultOffset: number): Document {
  const utcMinute = minuteOfWeek(instant);
  const zonelessMinute = minuteOfWeek(instant, defaultOffset);
  const zonelessDate = localDate(instant, defaultOffset);
  return {
    _open_keys: {
      $in: [
        ...OFFSETS.map((offset) => openKey(offset, minuteOfWeek(instant, offset))),
        openKey(ZONELESS, zonelessMinute),
      ],
    },
    $or: [
      // A UTC session's validity ends at an instant (excluded), a zoneless one's on a date (included).
      { _open_utc: sessionAt(utcMinute, instant, '$gt') },
      { _open_zoneless: sessionAt(zonelessMinute, zonelessDate, '$gte') },
    ],
  };
}

/** A session open at this minute of the week, its schedule in force at `when` (its end by `toOperator`). */
const sessionAt = (minute: number, when: Date | string, toOperator: '$gt' | '$gte'): Document => ({
  $elemMatch: {
    s: { $lte: minute },
    e: { $gt: minute },
    from: { $lte: when },
    to: { [toOperator]: when },
  },
});

/** Records with a session at this local minute of the week, in each schedule's own time, whatever the date. */
function openOnClause(localMinute: number): Document {
  return {
    _open_keys: {
      $in: [...OFFSETS.map((offset) => openKey(offset, localMinute)), openKey(ZONELESS, localMinute)],
    },
    _open_local: { $elemMatch: { s: { $lte: localMinute }, e: { $gt: localMinute } } },
  };
}
