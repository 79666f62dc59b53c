import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStandin } from '../src/index.ts';
import { makeDataDir, startHarness, type Harness } from './support/harness.ts';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.stop();
});

describe('one stand-in per data directory', () => {
  it('refuses a second server on a directory in use, naming the holder, and takes it once let go', async () => {
    const dataDir = await makeDataDir();
    const first = await startHarness(dataDir);
    await first.client.db('d').collection('c').insertOne({ name: 'kept' });
    await expect(startStandin({ port: 0, dataDir })).rejects.toThrow(
      new RegExp(`in use by process ${process.pid}`),
    );
    // However the directory is spelt.
    const spelt = join(relative(process.cwd(), dataDir), '.');
    await expect(startStandin({ port: 0, dataDir: spelt })).rejects.toThrow(/in use by process/);
    // Still whole: the refused server wrote nothing.
    expect(await first.client.db('d').collection('c').countDocuments()).toBe(1);
    await first.stop();

    const second = await startHarness(dataDir);
    harnesses.push(second);
    expect(await second.client.db('d').collection('c').countDocuments()).toBe(1);
  });

  it('takes over the lock of a process that is gone', async () => {
    const dataDir = await makeDataDir();
    // A pid that no process has any more: a child that has exited.
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    await writeFile(join(dataDir, 'standin.lock'), `${child.pid}\n`);
    const harness = await startHarness(dataDir);
    harnesses.push(harness);
    expect(await readFile(join(dataDir, 'standin.lock'), 'utf8')).toBe(`${process.pid}\n`);
  });

  it("takes over a lock naming this process's pid that this process did not take (an earlier run's)", async () => {
    const dataDir = await makeDataDir();
    await writeFile(join(dataDir, 'standin.lock'), `${process.pid}\n`);
    const harness = await startHarness(dataDir);
    harnesses.push(harness);
    await expect(startStandin({ port: 0, dataDir })).rejects.toThrow(/in use by process/);
  });

  it('gives the directory to exactly one of many servers starting at once, fresh or after a dead holder', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    // Races are won by timing: many rounds of each, so that an unsafe lock is caught.
    for (const stale of Array.from({ length: 16 }, (_, round) => round % 2 === 1)) {
      const dataDir = await makeDataDir();
      if (stale) await writeFile(join(dataDir, 'standin.lock'), `${gone.pid}\n`);
      const starts = await Promise.allSettled(
        Array.from({ length: 12 }, () => startStandin({ port: 0, dataDir })),
      );
      const started = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
      expect(started, stale ? 'after a dead holder' : 'fresh').toHaveLength(1);
      for (const server of started) await server.close();
    }
  });

  it('lets the directory go when its port is taken', async () => {
    const holder = await startHarness();
    harnesses.push(holder);
    const dataDir = await makeDataDir();
    const port = Number(new URL(holder.server.uri).port);
    await expect(startStandin({ port, dataDir })).rejects.toThrow(/EADDRINUSE/);
    const harness = await startHarness(dataDir);
    harnesses.push(harness);
  });
});
