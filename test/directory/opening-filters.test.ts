/*
 * Issue #23: `age`, `open_at`, `day` with `time`, and `open_now` on /services and /service_at_locations,
 * checked against an oracle written here (from each schedule's fields, instant by instant) over generated
 * schedules: working weeks in numeric zones, weekends with an offset on the times, evenings past midnight,
 * seasons, zones on both sides of the date line, schedules in no stated zone (the server's default), whole
 * days, forms not understood (monthly), and services without a schedule, which never match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentCollection } from '../../src/db/collections.ts';
import { openingClauses } from '../../src/directory/opening-filters.ts';
import type { Json } from '../../src/json.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  blamedParameters,
  directoryClient,
  expectProblem,
  idsOf,
  startSampleApp,
} from '../support/directory-client.ts';
import { importLines } from '../support/import.ts';
import { planOf } from '../support/query-plan.ts';

/** The server's default zone for schedules that state none: UTC−08:00. */
const DEFAULT_OFFSET = -480;
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
const uuid = (kind: number, n: number) => `${pad(kind)}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Schedules of each kind the issue names, varied by the generator. */
function scheduleOf(kind: number, n: number, r: ReturnType<typeof random>): Json {
  const id = uuid(90 + (kind % 10), n * 10 + kind);
  const hour = (from: number, span: number) => pad(from + r.int(span));
  switch (kind) {
    case 0: // a working week, in a numeric zone
      return {
        id,
        freq: 'WEEKLY',
        byday: 'MO,TU,WE,TH,FR',
        opens_at: `${hour(7, 3)}:00`,
        closes_at: `${hour(15, 4)}:30`,
        timezone: r.pick([-5, -8, 1, 5.5]),
      };
    case 1: // weekends only, the offset on the times
      return {
        id,
        freq: 'WEEKLY',
        byday: 'SA,SU',
        opens_at: `${hour(9, 3)}:00+01:00`,
        closes_at: `${hour(13, 4)}:00+01:00`,
      };
    case 2: // evenings past midnight, some from a Monday (a Sunday night's session before it is not open)
      return {
        id,
        freq: 'WEEKLY',
        byday: r.pick(['FR,SA', 'SU', 'TH,FR,SA,SU', 'su, mo']),
        opens_at: `${hour(19, 4)}:00Z`,
        closes_at: `0${r.int(4)}:00:${r.pick(['00', '30'])}Z`,
        ...(r.next() < 0.5 ? { valid_from: '2026-06-01', valid_to: '2026-06-28' } : {}),
      };
    case 3: // a season, east of the date line
      return {
        id,
        freq: 'WEEKLY',
        byday: 'MO,WE,FR',
        opens_at: '08:00',
        closes_at: '12:00',
        timezone: r.pick([13, 14]),
        valid_from: '2026-06-01',
        valid_to: '2026-08-31',
      };
    case 4: // west of the date line
      return {
        id,
        freq: 'WEEKLY',
        byday: 'TU,TH',
        opens_at: '06:00-11:00',
        closes_at: '10:00-11:00',
        valid_from: '2026-01-01',
      };
    case 5: // no stated zone: the server's default, some in a season
      return {
        id,
        freq: 'WEEKLY',
        byday: r.pick(['MO', 'MO,TU', 'SU']),
        opens_at: `${hour(10, 4)}:15:30`,
        closes_at: `${hour(14, 4)}:45:10`,
        ...(r.next() < 0.5 ? { valid_from: '2026-03-02', valid_to: '2026-10-31' } : {}),
      };
    case 6: // every day, all day
      return {
        id,
        freq: 'WEEKLY',
        byday: DAYS.join(','),
        opens_at: '00:00',
        closes_at: '00:00',
        timezone: 0,
        valid_to: '2026-12-31',
      };
    case 7: // weekly on dtstart's weekday (2026-04-01, a Wednesday) until a date
      return {
        id,
        freq: 'WEEKLY',
        dtstart: '2026-04-01',
        until: '2026-12-16',
        opens_at: '13:00',
        closes_at: '16:00',
        timezone: -3,
      };
    default: // a form not understood: never open by it
      return { id, freq: 'MONTHLY', byday: '1MO', opens_at: '09:00', closes_at: '17:00', timezone: -5 };
  }
}

const r = random(23);
const SERVICES: Json[] = Array.from({ length: 60 }, (_, n) => {
  const schedules =
    n % 10 === 9 ? [] : Array.from({ length: 1 + r.int(2) }, (_, k) => scheduleOf(r.int(9), n * 2 + k, r));
  const ages: Json = {};
  if (r.next() < 0.5) ages.minimum_age = r.int(20);
  if (r.next() < 0.5) ages.maximum_age = 10 + r.int(60);
  // Some services at location keep schedules of their own, which win over their service's, even when
  // none of them is understood (then it is never open).
  const own = n % 4 === 0 ? [scheduleOf(n % 12 === 0 ? 8 : r.int(8), 500 + n, r)] : [];
  return {
    id: uuid(1, n),
    name: `Service ${n}`,
    status: 'active',
    ...ages,
    schedules,
    service_at_locations: [
      {
        id: uuid(2, n),
        schedules: own,
        location: { id: uuid(3, n), location_type: 'physical', name: `Site ${n}` },
      },
    ],
  };
});

// ---- The oracle: from a schedule's fields, at one instant ----

interface Zoned {
  offset: number | null;
  days: number[];
  /** Seconds from midnight. */
  opens: number;
  closes: number;
}

function understood(schedule: Json): Zoned | null {
  if (schedule.freq !== 'WEEKLY' || /\d/.test(String(schedule.byday ?? ''))) return null;
  const time = (text: unknown) => /^(\d\d):(\d\d)(?::(\d\d))?(Z|[+-]\d\d:\d\d)?$/.exec(String(text));
  const opens = time(schedule.opens_at)!;
  const closes = time(schedule.closes_at)!;
  const suffix = opens[4];
  let offset: number | null = null;
  if (suffix === 'Z') offset = 0;
  else if (suffix)
    offset = (suffix.startsWith('-') ? -1 : 1) * (Number(suffix.slice(1, 3)) * 60 + Number(suffix.slice(4)));
  else if (typeof schedule.timezone === 'number') offset = schedule.timezone * 60;
  const days =
    typeof schedule.byday === 'string'
      ? schedule.byday.split(',').map((day) => DAYS.indexOf(day.trim().toUpperCase()))
      : [(new Date(`${String(schedule.dtstart)}T00:00:00Z`).getUTCDay() + 6) % 7];
  const seconds = (match: RegExpExecArray) =>
    Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0);
  return { offset, days, opens: seconds(opens), closes: seconds(closes) };
}

/** Whether a schedule is in force on a local date. */
function inForce(schedule: Json, date: string): boolean {
  const after = [schedule.valid_from, schedule.dtstart].filter((d): d is string => typeof d === 'string');
  const before = [schedule.valid_to, schedule.until].filter((d): d is string => typeof d === 'string');
  return after.every((d) => date >= d) && before.every((d) => date <= d);
}

/**
 * Whether a schedule is open at a local weekday and second of the day, on `date` (a session past midnight
 * counts for the day it began, with `yesterday` its date); with no dates, whatever the date.
 */
function openAtLocal(
  schedule: Json,
  zoned: Zoned,
  weekday: number,
  second: number,
  dates?: { today: string; yesterday: string },
): boolean {
  const { days, opens, closes } = zoned;
  // To the minute: opening at its minute, closing at the end of its minute.
  const open = Math.floor(opens / 60) * 60;
  const pastMidnight = closes <= opens;
  const close = Math.ceil(closes / 60) * 60;
  const today = days.includes(weekday) && (!dates || inForce(schedule, dates.today));
  const yesterday = days.includes((weekday + 6) % 7) && (!dates || inForce(schedule, dates.yesterday));
  if (!pastMidnight) return today && second >= open && second < close;
  return (today && second >= open) || (yesterday && second < close);
}

function scheduleOpenAt(schedule: Json, instant: Date, defaultOffset: number): boolean {
  const zoned = understood(schedule);
  if (!zoned) return false;
  const local = new Date(instant.getTime() + (zoned.offset ?? defaultOffset) * 60_000);
  const today = local.toISOString().slice(0, 10);
  const yesterday = new Date(local.getTime() - 86_400_000).toISOString().slice(0, 10);
  const second = local.getUTCHours() * 3600 + local.getUTCMinutes() * 60 + local.getUTCSeconds();
  return openAtLocal(schedule, zoned, (local.getUTCDay() + 6) % 7, second, { today, yesterday });
}

const list = (value: unknown) => (Array.isArray(value) ? (value as Json[]) : []);
const pairingOf = (service: Json) => list(service.service_at_locations)[0]!;
const pairingSchedules = (service: Json) =>
  list(pairingOf(service).schedules).length > 0
    ? list(pairingOf(service).schedules)
    : list(service.schedules);
const admits = (service: Json, age: number) =>
  (typeof service.minimum_age !== 'number' || service.minimum_age <= age) &&
  (typeof service.maximum_age !== 'number' || service.maximum_age >= age);

// ---- The server ----

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ HSDS_DEFAULT_TIMEZONE: '-08:00' });
  const report = await importLines(app.database.db, SERVICES);
  expect(report.rejected, JSON.stringify(report.rejections?.slice(0, 3))).toBe(0);
}, 60_000);
afterAll(async () => app?.close());

async function ids(path: string, query: Record<string, string>): Promise<string[]> {
  const response = await fetch(`${app.url}${path}?${new URLSearchParams({ ...query, per_page: '1000' })}`);
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(200);
  return (JSON.parse(text) as { contents: Json[] }).contents.map((item) => item.id as string);
}

const expected = (keep: (service: Json) => boolean, id: (service: Json) => string) =>
  SERVICES.filter(keep).map(id).sort();

/** Instants across 2026 at random, and the edges the schedules turn at (whole hours, midnight, Sunday night). */
const INSTANTS = [
  // Whole quarter hours, and some at a random second.
  ...Array.from(
    { length: 60 },
    (_, k) =>
      new Date(
        Date.UTC(2026, 0, 1) + r.int(2 * 365 * 24 * 4) * 15 * 60_000 + (k % 3 === 0 ? r.int(900_000) : 0),
      ),
  ),
  // A Sunday night's session before valid_from (Monday 2026-06-01), and the last Sunday's after valid_to.
  new Date('2026-06-01T01:00:00Z'),
  new Date('2026-06-29T01:00:00Z'),
  new Date('2026-06-28T23:30:00Z'),
  new Date('2026-07-05T23:59:00Z'),
  new Date('2026-07-06T00:00:00Z'),
  new Date('2026-06-01T08:30:00+13:00'),
  new Date('2026-05-31T08:30:00+13:00'),
  new Date('2026-08-31T11:59:00+14:00'),
  new Date('2026-09-01T08:00:00+14:00'),
  new Date('2026-03-05T06:00:00-11:00'),
  new Date('2025-12-30T06:00:00-11:00'),
  new Date('2026-11-29T01:30:00Z'),
  new Date('2027-01-01T12:00:00Z'),
  new Date('2026-12-16T18:30:00Z'),
  new Date('2026-12-23T18:30:00Z'),
];

describe('open_at', () => {
  it('finds exactly the services, and services at location, the oracle finds open', async () => {
    let open = 0;
    for (const instant of INSTANTS) {
      const at = instant.toISOString();
      const services = expected(
        (service) => list(service.schedules).some((s) => scheduleOpenAt(s, instant, DEFAULT_OFFSET)),
        (service) => service.id as string,
      );
      expect(await ids('/services', { open_at: at }), at).toEqual(services);
      const pairings = expected(
        (service) => pairingSchedules(service).some((s) => scheduleOpenAt(s, instant, DEFAULT_OFFSET)),
        (service) => pairingOf(service).id as string,
      );
      expect(await ids('/service_at_locations', { open_at: at }), at).toEqual(pairings);
      open += services.length;
    }
    // The instants found some open and some closed.
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThan(INSTANTS.length * SERVICES.length);
  });

  it('reads the instant in any offset alike', async () => {
    const instant = new Date('2026-07-10T18:30:00Z');
    expect(await ids('/services', { open_at: '2026-07-11T04:30:00+10:00' })).toEqual(
      await ids('/services', { open_at: instant.toISOString() }),
    );
  });
});

describe('day and time', () => {
  it("find what is open at that weekday and time in each schedule's local time, whatever the date", async () => {
    for (let k = 0; k < 30; k++) {
      const weekday = r.int(7);
      const minute = r.int(24 * 4) * 15;
      const query = { day: DAYS[weekday]!, time: `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}` };
      const byLocalTime = (schedule: Json) => {
        const zoned = understood(schedule);
        return zoned !== null && openAtLocal(schedule, zoned, weekday, minute * 60);
      };
      expect(await ids('/services', query), JSON.stringify(query)).toEqual(
        expected(
          (service) => list(service.schedules).some(byLocalTime),
          (service) => service.id as string,
        ),
      );
      expect(await ids('/service_at_locations', query), JSON.stringify(query)).toEqual(
        expected(
          (service) => pairingSchedules(service).some(byLocalTime),
          (service) => pairingOf(service).id as string,
        ),
      );
    }
  });
});

describe('open_now', () => {
  it('is open_at at the time of the request', async () => {
    const before = await ids('/services', { open_at: new Date().toISOString() });
    const now = await ids('/services', { open_now: 'true' });
    const after = await ids('/services', { open_at: new Date().toISOString() });
    expect([before, after]).toContainEqual(now);
  });

  it('is kept by no cache past the minute it answers for, nor by the server', async () => {
    const response = await fetch(`${app.url}/services?open_now=true`);
    await response.arrayBuffer();
    const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    // Whole seconds left in the minute as the answer went (0 in its last second), never more than its Date
    // leaves.
    expect(maxAge).toBeGreaterThanOrEqual(0);
    expect(maxAge).toBeLessThanOrEqual(
      60 - new Date(Date.parse(response.headers.get('date')!)).getUTCSeconds(),
    );
    // Asked again, it is answered again (the server's kept answers count hits).
    const hits = async () => {
      const metrics = await (await fetch(`${app.url}/metrics`)).text();
      return metrics
        .split('\n')
        .filter((line) => /^hsds_kept_answers_total\{[^}]*outcome="hit"/.test(line))
        .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
    };
    const before = await hits();
    await (await fetch(`${app.url}/services?open_now=true`)).arrayBuffer();
    expect(await hits()).toBe(before);
  });
});

describe('age', () => {
  it('keeps the services and services at location whose eligibility admits that age', async () => {
    for (const age of [0, 5, 16, 16.5, 30, 70, 150]) {
      expect(await ids('/services', { age: String(age) }), String(age)).toEqual(
        expected(
          (service) => admits(service, age),
          (service) => service.id as string,
        ),
      );
      expect(await ids('/service_at_locations', { age: String(age) }), String(age)).toEqual(
        expected(
          (service) => admits(service, age),
          (service) => pairingOf(service).id as string,
        ),
      );
    }
  });
});

describe('combined', () => {
  it('AND with each other and with the other filters, in pages, NDJSON, minimal and POST bodies', async () => {
    const at = '2026-07-11T10:30:00+01:00';
    const both = await ids('/services', { open_at: at, age: '16' });
    const open = new Set(await ids('/services', { open_at: at }));
    expect(both).toEqual((await ids('/services', { age: '16' })).filter((id) => open.has(id)));
    expect(both.length).toBeGreaterThan(0);
    const withSearch = await ids('/services', { open_at: at, search: 'service' });
    expect(withSearch).toEqual([...open].sort());

    const query = new URLSearchParams({ open_at: at, age: '16' });
    const client = directoryClient(app.url);
    expect(idsOf(await client.ndjsonItems(`/services?${query}&format=ndjson`))).toEqual(both);
    const minimal = (await (await fetch(`${app.url}/services?${query}&minimal=true`)).json()) as Json[];
    expect(minimal.map((entry) => entry.id)).toEqual(both);
    const pairings = await ids('/service_at_locations', { open_at: at, age: '16' });
    expect(idsOf(await client.ndjsonItems(`/service_at_locations?${query}&format=ndjson`))).toEqual(pairings);
    // Pages of two: the same items in order, and a header that counts them all.
    const paged: string[] = [];
    for (let page = 1; page <= Math.ceil(both.length / 2); page++) {
      const body = (await (await fetch(`${app.url}/services?${query}&per_page=2&page=${page}`)).json()) as {
        total_items: number;
        contents: Json[];
      };
      expect(body.total_items).toBe(both.length);
      paged.push(...body.contents.map((item) => item.id as string));
    }
    expect(paged).toEqual(both);
    const posted = await fetch(`${app.url}/services`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ open_at: at, age: 16, per_page: 1000 }),
    });
    expect(((await posted.json()) as { contents: Json[] }).contents.map((item) => item.id)).toEqual(both);
  });

  it('refuses bad values and questions asked two ways with a 400 naming the parameter', async () => {
    for (const [query, blamed] of [
      ['age=-1', 'age'],
      ['age=old', 'age'],
      ['open_at=2026-07-11', 'open_at'],
      ['open_at=2026-07-11T10:30:00', 'open_at'],
      ['open_at=tomorrow', 'open_at'],
      ['day=XX&time=10:00', 'day'],
      ['day=MO&time=24:00', 'time'],
      ['day=MO&time=9:00', 'time'],
      ['day=MO', 'day'],
      ['time=10:00', 'time'],
      ['open_now=maybe', 'open_now'],
      ['open_now=true&open_at=2026-07-11T10:30:00Z', 'open_now'],
      ['day=MO&time=10:00&open_now=true', 'day'],
    ] as const) {
      for (const path of ['/services', '/service_at_locations']) {
        const problem = await expectProblem(
          await fetch(`${app.url}${path}?${query}`),
          400,
          `${path}?${query}`,
        );
        expect(blamedParameters(problem), `${path}?${query}`).toEqual([blamed]);
      }
    }
  });

  it('say what an instant needs: a date, a time and a zone, from 0001-01-02 to 9999-12-29', async () => {
    const messageFor = async (openAt: string) => {
      const target = `${app.url}/services?open_at=${encodeURIComponent(openAt)}`;
      return (await expectProblem(await fetch(target), 400, openAt)).errors?.[0]?.message;
    };
    const needsZone = 'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-27T09:30:00-05:00';
    for (const openAt of ['2026-07-11', '2026-07-11T10:30:00', '2026-07-11T10:30'])
      expect(await messageFor(openAt), openAt).toBe(needsZone);
    for (const openAt of ['0001-01-01T00:00:00Z', '0001-01-02T00:00:00+14:00', '9999-12-30T00:00:00Z'])
      expect(await messageFor(openAt), openAt).toBe('must be from 0001-01-02 to 9999-12-29 (UTC)');
    for (const openAt of ['0001-01-02T00:00:00Z', '9999-12-29T23:59:59Z'])
      expect((await fetch(`${app.url}/services?open_at=${openAt}`)).status, openAt).toBe(200);
  });
});

describe('on the sample directory, with postcode and proximity', () => {
  it("keeps proximity's nearest-first order among what is open, and what the age admits", async () => {
    const sample = await startSampleApp();
    try {
      const ordered = async (query: string) => {
        const response = await fetch(`${sample.url}/service_at_locations?${query}&per_page=1000`);
        expect(response.status, query).toBe(200);
        return ((await response.json()) as { contents: Json[] }).contents.map((item) => item.id as string);
      };
      const near = 'postcode=98118&proximity=30000';
      // A Wednesday, 10:00 in Seattle.
      const at = 'open_at=2026-11-25T10:00:00-08:00';
      const nearest = await ordered(near);
      const open = new Set(await ordered(at));
      const both = await ordered(`${near}&${at}`);
      expect(both).toEqual(nearest.filter((id) => open.has(id)));
      expect(both.length).toBeGreaterThan(0);
      expect(both.length).toBeLessThan(nearest.length);
      // At 03:00 on that night, far less is open.
      const night = await ordered(`${near}&open_at=2026-11-25T03:00:00-08:00`);
      expect(night.length).toBeLessThan(both.length);
      const young = new Set(await ordered('age=12'));
      expect(await ordered(`${near}&${at}&age=12`)).toEqual(both.filter((id) => young.has(id)));
    } finally {
      await sample.close();
    }
  });
});

describe('query plans', () => {
  it.each([
    ['open_at', { open_at: new Date('2026-07-11T10:30:00Z') }],
    ['day and time', { day: 'SA' as const, time: 600 }],
  ])('answer %s from the index of opening keys, on pages', async (_name, parameters) => {
    for (const collection of [documentCollection.service, documentCollection.service_at_location]) {
      const [filter] = openingClauses(parameters, new Date(), DEFAULT_OFFSET);
      const plan = await planOf(app.database.db, collection, filter!);
      expect(plan.collectionScan, collection).toBe(false);
      expect(plan.indexes, collection).toContain('_open_keys_1');
    }
  });

  it('answers age from an index of the eligible ages', async () => {
    const [filter] = openingClauses({ age: 16 }, new Date(), DEFAULT_OFFSET);
    const plan = await planOf(app.database.db, documentCollection.service, filter!);
    expect(plan.collectionScan).toBe(false);
    expect(plan.indexes.some((index) => /^_age_(min|max)_1$/.test(index!))).toBe(true);
  });
});
