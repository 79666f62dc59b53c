/*
 * `npm run harvest` end to end (issue #21): its report and exit status (1 with a rejected record, named by
 * its URL; 2 for a feed that cannot be read, or bad arguments), and credentials given with --header never
 * in its output, whatever the log level.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceNdjsonChunks } from '../../scripts/generator/ndjson-chunks.ts';
import type { Json } from '../../src/json.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { listening, requiredOnlyFeed } from '../support/fake-feed.ts';
import { startScript } from '../support/process.ts';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await startTestDatabase();
});
afterAll(async () => testDatabase?.close());

const runHarvest = (args: string[], db = randomDatabaseName()) =>
  startScript(
    'scripts/harvest.ts',
    { MONGODB_URI: testDatabase.uri, HSDS_DB_NAME: db, LOG_LEVEL: 'debug' },
    args,
  );

const services = [...serviceNdjsonChunks(10, 4)]
  .join('')
  .trim()
  .split('\n')
  .map((line, index): Json => ({
    ...(JSON.parse(line) as Json),
    ...(index === 3 ? { status: 'maybe' } : {}),
  }));

describe('npm run harvest', () => {
  it('loads a feed, names the record it rejects and exits 1, never showing a credential', async () => {
    const seen = { headers: [] as string[] };
    const feed = requiredOnlyFeed(services, seen);
    const url = await listening(feed);
    try {
      const db = randomDatabaseName();
      const run = runHarvest([url, '--source', 'partner', '--header', 'Authorization: Bearer s3cret'], db);
      expect(await run.exited).toBe(1);
      expect(run.output()).toMatch(/Harvested .* \(whole\), services read as records/);
      expect(run.output()).toMatch(/9 inserted, 0 updated, 0 unchanged, 1 rejected/);
      expect(run.output()).toContain(`rejected: ${url}services/${services[3]!.id as string}`);
      expect(run.output()).toMatch(/warning: .*organizations answered 404: skipped/);
      expect(run.output()).not.toContain('s3cret');
      expect(new Set(seen.headers)).toEqual(new Set(['Bearer s3cret']));
      // Recorded in the meta log, its headers by name only.
      const entries = await testDatabase.client.db(db).collection('meta.entries').find().toArray();
      expect(entries).toMatchObject([{ path: '/harvest', verb: 'POST', status: 'Complete' }]);
      expect(JSON.parse(entries[0]!.request_headers as string)).toEqual({ Authorization: '[redacted]' });
      expect(JSON.stringify(entries)).not.toContain('s3cret');
    } finally {
      feed.close();
    }
  }, 60_000);

  it('exits 2 when the feed cannot be read, and for bad arguments, echoing no header value', async () => {
    const feed = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"version":"2.0"}');
    });
    const url = await listening(feed);
    try {
      const old = runHarvest([url]);
      expect(await old.exited).toBe(2);
      expect(old.output()).toMatch(/not an HSDS 3 API \(its root gives version "2\.0"\)/);
    } finally {
      feed.close();
    }
    const badHeader = runHarvest(['http://127.0.0.1:9/', '--header', 'Bearer-only s3cret']);
    expect(await badHeader.exited).toBe(2);
    expect(badHeader.output()).toMatch(/--header must be 'Name: value'/);
    expect(badHeader.output()).not.toContain('s3cret');
    const notUrl = runHarvest(['feed.example.org']);
    expect(await notUrl.exited).toBe(2);
    expect(notUrl.output()).toMatch(/must be an http or https URL/);
    for (const [args, message] of [
      [['https://feed.example.org/api?key=K'], /must not have a query or fragment/],
      [['https://user:pw@feed.example.org/'], /must not hold credentials/],
      [['https://a.example.org/', 'https://b.example.org/'], /usage: npm run harvest/],
      [['https://feed.example.org/', '--concurrency', '0'], /--concurrency must be an integer from 1 to 64/],
      [
        ['https://feed.example.org/', '--timeout-ms', '50'],
        /--timeout-ms must be an integer of at least 100/,
      ],
      [
        ['https://feed.example.org/', '--header', 'Bad Name: s3cret'],
        /header 1: its name is not a header name/,
      ],
      [['https://feed.example.org/', '--force'], /--force goes with --replace/],
    ] as const) {
      const refused = runHarvest([...args]);
      expect(await refused.exited, args.join(' ')).toBe(2);
      expect(refused.output()).toMatch(message);
      expect(refused.output()).not.toContain('s3cret');
    }
  }, 60_000);
});
