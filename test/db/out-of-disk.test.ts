/*
 * A database out of disk space: a write it refuses is a 503 with Retry-After (never a 500), readiness says
 * the database is not writable while it lasts, and both recover once space is freed, with no restart and
 * nothing acknowledged lost. The stand-in runs in its own process on a small tmpfs (CI runs as root; where
 * mounting is refused the test says so and is skipped).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceNdjsonChunks } from '../../scripts/generator/ndjson-chunks.ts';
import { waitFor, type RunningProcess } from '../support/process.ts';
import { asAdmin, startServerOnStandin } from '../support/server-on-standin.ts';

let dir: string;
let mount: string | undefined;
let refused: string | undefined;
let database: RunningProcess | undefined;
let server: RunningProcess | undefined;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hsds-full-'));
  const target = path.join(dir, 'disk');
  await mkdir(target);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=128m', 'tmpfs', target], { stdio: 'pipe' });
    mount = target;
  } catch (error) {
    refused = String((error as { stderr?: Buffer }).stderr ?? error).trim();
    console.warn(`skipping the out-of-disk test: cannot mount a tmpfs here (${refused})`);
    return;
  }
  ({ database, server, url } = await startServerOnStandin(path.join(mount, 'db'), path.join(dir, 'server'), {
    HSDS_DB_NAME: 'full',
  }));
});

afterAll(async () => {
  for (const running of [server, database]) {
    if (!running) continue;
    running.child.kill('SIGKILL');
    await running.exited;
  }
  if (mount) execFileSync('umount', ['-l', mount]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Imports generated services (new ones each time, by seed) and waits for the report. */
const importServices = (count: number, seed: number) =>
  fetch(`${url}/import?wait=true`, {
    method: 'POST',
    headers: { ...asAdmin, 'content-type': 'application/x-ndjson' },
    body: [...serviceNdjsonChunks(count, seed)].join(''),
  });

describe('a database out of disk space', () => {
  it.skipIf(refused !== undefined)(
    'refuses writes with 503 and Retry-After, reports not writable, and recovers once space is freed',
    async () => {
      const before = (await (await fetch(`${url}/services?per_page=1`)).json()) as { total_items: number };
      // Fill what is left of the disk.
      const space = await statfs(mount!);
      const filler = path.join(mount!, 'filler');
      await writeFile(filler, Buffer.alloc(Number(space.bavail * space.bsize)));

      const refusal = await importServices(300, 7);
      const body = await refusal.text();
      expect(refusal.status, body).toBe(503);
      expect(refusal.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refusal.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(body).detail).toMatch(/out of disk space/);

      const notWritable = await fetch(`${url}/readyz`);
      expect(notWritable.status).toBe(503);
      expect(await notWritable.json()).toMatchObject({ database: 'not writable' });
      // Reads go on meanwhile.
      expect((await fetch(`${url}/services?per_page=1`)).status).toBe(200);

      await rm(filler);
      await waitFor(
        async () => (await fetch(`${url}/readyz`)).status === 200,
        20_000,
        'readiness after space was freed',
      );
      const retried = await importServices(300, 7);
      expect(retried.status, await retried.clone().text()).toBe(200);
      const after = (await (await fetch(`${url}/services?per_page=1`)).json()) as { total_items: number };
      expect(after.total_items).toBe(before.total_items + 300);
      expect(server!.child.exitCode, 'the server was not restarted').toBeNull();
      expect(database!.child.exitCode, 'the database did not stop').toBeNull();
    },
    120_000,
  );
});
