/*
 * Harvests on a schedule (issue #21, HSDS_HARVEST): the server harvests its configured feeds one at a time,
 * each recorded in the meta log with its headers by name only; a feed that cannot be read is logged and
 * tried again at its next turn, never stopping the others; stopping ends the schedule.
 */
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceNdjsonChunks } from '../../scripts/generator/ndjson-chunks.ts';
import { loadConfig } from '../../src/config.ts';
import { META_ENTRIES } from '../../src/db/protocol-records.ts';
import { scheduleHarvests } from '../../src/harvest/harvest-schedule.ts';
import type { Json } from '../../src/json.ts';
import { createLogger } from '../../src/log.ts';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { listening, requiredOnlyFeed } from '../support/fake-feed.ts';
import { waitFor } from '../support/process.ts';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await startTestDatabase();
});
afterAll(async () => testDatabase?.close());

const services = [...serviceNdjsonChunks(8, 6)]
  .join('')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Json);

describe('scheduled harvests', () => {
  it('harvests each feed in turn, recording each run, and goes on past a feed that fails', async () => {
    const db = testDatabase.db;
    const good = requiredOnlyFeed(services, { headers: [] });
    const broken = createServer((_request, response) => {
      response.writeHead(500);
      response.end();
    });
    const goodUrl = await listening(good);
    const brokenUrl = await listening(broken);
    const lines: string[] = [];
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    const feed = { headers: {}, full: false, replace: false, force: false };
    const schedule = scheduleHarvests(
      db,
      [
        { ...feed, url: brokenUrl, source: 'broken', intervalMs: 200 },
        {
          ...feed,
          url: goodUrl,
          source: 'partner',
          intervalMs: 60_000,
          headers: { Authorization: 'Bearer s3cret' },
        },
      ],
      { logger, config: { ...loadConfig({}), metaSystem: 'test' } },
    );
    try {
      await waitFor(
        async () => (await db.collection('services').countDocuments()) === 8,
        30_000,
        'the harvest',
      );
      // The broken feed keeps its turns after the good one.
      await waitFor(
        async () => (await db.collection(META_ENTRIES).countDocuments({ path: '/harvest' })) >= 3,
        30_000,
        'more runs',
      );
    } finally {
      await schedule.stop();
      good.close();
      broken.close();
    }
    const entries = await db.collection(META_ENTRIES).find({ path: '/harvest' }).toArray();
    const partner = entries.find((entry) => String(entry.request_parameters).includes('partner'))!;
    expect(partner).toMatchObject({ status: 'Complete', verb: 'POST', system: 'test' });
    expect(JSON.parse(partner.request_headers as string)).toEqual({ Authorization: '[redacted]' });
    expect(JSON.parse(partner.response_body as string)).toMatchObject({ inserted: 8, source: 'partner' });
    const brokenRuns = entries.filter((entry) => String(entry.request_parameters).includes('broken'));
    expect(brokenRuns.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(brokenRuns[0]!.response_body as string)).toMatchObject({
      harvest: { unreadable: expect.stringMatching(/answered 500/) },
    });
    expect(lines.join('')).toMatch(/harvest could not read the whole feed/);
    expect(JSON.stringify(entries) + lines.join('')).not.toContain('s3cret');
  }, 90_000);
});

describe('HSDS_HARVEST', () => {
  it('takes a JSON list of feeds, and refuses a bad one naming the variable, not the headers', () => {
    const config = loadConfig({
      HSDS_HARVEST: JSON.stringify([
        { url: 'https://feed.example.org/api', interval_minutes: 60, headers: { Authorization: 'Bearer x' } },
      ]),
    });
    expect(config.harvests).toEqual([
      {
        url: 'https://feed.example.org/api',
        intervalMs: 3_600_000,
        headers: { Authorization: 'Bearer x' },
        full: false,
        replace: false,
        force: false,
      },
    ]);
    expect(() => loadConfig({ HSDS_HARVEST: '[{' })).toThrow(/HSDS_HARVEST: must be a JSON array of feeds/);
    const refused = (feed: object) => () => loadConfig({ HSDS_HARVEST: JSON.stringify([feed]) });
    const feed = { url: 'https://feed.example.org', interval_minutes: 60 };
    expect(refused({ ...feed, force: true })).toThrow(/HSDS_HARVEST\.0: force goes with replace/);
    expect(refused({ ...feed, url: 'ftp://feed.example.org' })).toThrow(
      /HSDS_HARVEST\.0\.url: must be http or https/,
    );
    expect(refused({ ...feed, headers: { 'Bad Name': 'x' } })).toThrow(
      /HSDS_HARVEST\.0\.headers\.Bad Name: its name is not a header name/,
    );
    expect(refused({ ...feed, headers: { Authorization: 's3cret\nX: y' } })).toThrow(
      /HSDS_HARVEST\.0\.headers\.Authorization: its value holds a line break or NUL/,
    );
    expect(refused({ ...feed, headers: { Authorization: 's3cret\nX: y' } })).not.toThrow(/s3cret/);
    expect(() =>
      loadConfig({
        HSDS_HARVEST: JSON.stringify([{ url: 'https://a:s3cret@feed.example.org', interval_minutes: 60 }]),
      }),
    ).toThrow(
      /HSDS_HARVEST\.0\.url: the feed URL must not hold credentials|HSDS_HARVEST\.0\.url: must not hold credentials/,
    );
    expect(() =>
      loadConfig({
        HSDS_HARVEST: JSON.stringify([{ url: 'https://feed.example.org', interval_minutes: 0 }]),
      }),
    ).toThrow(/HSDS_HARVEST\.0\.interval_minutes/);
  });
});
