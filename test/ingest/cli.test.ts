import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { startScript, waitFor } from '../support/process.ts';
import { servedHashes } from '../support/import.ts';

// `npm run import` end to end, against the test database through MONGODB_URI.
let testDatabase: TestDatabase;
let workDir: string;

beforeAll(async () => {
  testDatabase = await startTestDatabase();
  workDir = await mkdtemp(path.join(tmpdir(), 'hsds-cli-'));
});
afterAll(async () => {
  await testDatabase?.close();
  await rm(workDir, { recursive: true, force: true });
});

const databaseNamed = (suffix: string) => testDatabase.client.db(`${testDatabase.db.databaseName}_${suffix}`);

/** Runs a CLI script against `db`. */
const runScript = (script: string, db: Db, args: string[] = []) =>
  startScript(
    script,
    {
      MONGODB_URI: testDatabase.uri,
      HSDS_DB_NAME: db.databaseName,
      LOG_LEVEL: 'warn',
    },
    args,
  );

const runImport = (db: Db, args: string[]) => runScript('scripts/import.ts', db, args);

async function generate(count: number): Promise<string> {
  const file = path.join(workDir, `services-${count}.ndjson`);
  const generator = startScript('scripts/generate-services.ts', {}, [
    '--count',
    String(count),
    '--seed',
    '7',
    '--out',
    file,
  ]);
  expect(await generator.exited).toBe(0);
  return file;
}

describe('npm run import', () => {
  it('reports each rejected record with its place and exits 1, loading the rest', async () => {
    const file = path.join(workDir, 'mixed.json');
    await writeFile(
      file,
      JSON.stringify([
        { id: '0b6c2f4e-8d51-4c1e-9a43-1f0c2b7d9e01', name: 'Legal Aid Clinic', status: 'active' },
        { id: '0b6c2f4e-8d51-4c1e-9a43-1f0c2b7d9e02', name: 'Dental Van', status: 'closed' },
      ]),
    );
    const db = databaseNamed('mixed');
    const run = runImport(db, [file]);
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('1 inserted, 0 updated, 0 unchanged, 1 rejected');
    expect(run.output()).toMatch(/rejected: .*mixed\.json \[1\] \$\.status: service: Invalid option/);
    expect(await db.collection('services').countDocuments()).toBe(1);
  });

  it('writes nothing in a dry run', async () => {
    const db = databaseNamed('dry');
    const run = runImport(db, ['--dry-run', 'fixtures/taxonomies.json']);
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('Dry run: 2 would be inserted');
    expect(await db.collection('taxonomies').countDocuments()).toBe(0);
  });

  it('refuses bad arguments with usage and exit 2', async () => {
    const run = runImport(databaseNamed('usage'), ['--type', 'widget', 'x.json']);
    expect(await run.exited).toBe(2);
    expect(run.output()).toMatch(/--type must be one of/);
    for (const workers of ['--workers=many', '--workers=', '--workers=5']) {
      const run = runImport(databaseNamed('usage'), [workers, 'x.json']);
      expect(await run.exited, workers).toBe(2);
      expect(run.output(), workers).toMatch(/--workers must be an integer from 0 to 4/);
    }
    for (const source of ['--source=', '--source=two words']) {
      const run = runImport(databaseNamed('usage'), [source, 'fixtures/taxonomies.json']);
      expect(await run.exited, source).toBe(2);
      expect(run.output(), source).toMatch(/--source must be 1 to 100 letters/);
    }
    expect(await databaseNamed('usage').collection('taxonomies').countDocuments()).toBe(0);
  });

  it('replaces a source with --replace, stopping unforced when the input lacks too much (exit 1)', async () => {
    const db = databaseNamed('replace');
    const taxonomies = JSON.parse(await readFile('fixtures/taxonomies.json', 'utf8')) as object[];
    const one = path.join(workDir, 'one-taxonomy.json');
    await writeFile(one, JSON.stringify(taxonomies.slice(0, 1)));
    expect(await runImport(db, ['--source', 'cat', 'fixtures/taxonomies.json']).exited).toBe(0);
    const dry = runImport(db, ['--source', 'cat', '--replace', '--force', '--dry-run', one]);
    expect(await dry.exited).toBe(0);
    expect(dry.output()).toMatch(
      /replace: the input lacked 1 of the 2 records source cat had; 1 would be deleted \(1 taxonomy\)/,
    );
    const replaced = runImport(db, ['--source', 'cat', '--replace', one]);
    expect(await replaced.exited).toBe(0);
    expect(replaced.output()).toMatch(/1 deleted \(1 taxonomy\), 0 kept/);
    expect(await db.collection('taxonomies').countDocuments()).toBe(1);
    const empty = path.join(workDir, 'empty.json');
    await writeFile(empty, '[]');
    const refused = runImport(db, ['--source', 'cat', '--replace', empty]);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/replace refused: the input lacks 1 of the 1 records source cat had/);
    expect(await db.collection('taxonomies').countDocuments()).toBe(1);
    const alone = runImport(db, ['--force', empty]);
    expect(await alone.exited).toBe(2);
    expect(alone.output()).toMatch(/--force goes with --replace/);
  });

  it('loads for the source it is given, and says which', async () => {
    const db = databaseNamed('source');
    const run = runImport(db, ['--source', 'example.org:8080', 'fixtures/taxonomies.json']);
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/2 inserted, .* source example\.org:8080/);
    expect(await db.collection('records.taxonomy').countDocuments({ _sources: 'example.org:8080' })).toBe(2);
  });

  it('completes an import killed part-way when it is run again, with --workers 2', async () => {
    const file = await generate(600);
    const crashed = databaseNamed('crashed');
    const first = runImport(crashed, ['--batch-size', '100', file]);
    await waitFor(
      async () => (await crashed.collection('services').countDocuments()) > 0,
      60_000,
      'the first documents',
    );
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await crashed.collection('services').countDocuments()).toBeLessThan(600);

    const rerun = runImport(crashed, ['--workers', '2', '--batch-size', '100', file]);
    expect(await rerun.exited).toBe(0);
    const clean = databaseNamed('clean');
    expect(await runImport(clean, ['--workers', '0', file]).exited).toBe(0);
    expect(await servedHashes(crashed)).toEqual(await servedHashes(clean));
    expect(await crashed.collection('import.pending').countDocuments()).toBe(0);
  }, 180_000);
});

describe('npm run rebuild', () => {
  it('rebuilds every document from the rows, mending damaged and missing ones', async () => {
    const db = databaseNamed('rebuild');
    expect(
      await runImport(db, [
        'fixtures/taxonomies.json',
        'fixtures/taxonomy_terms.json',
        'fixtures/organizations.json',
      ]).exited,
    ).toBe(0);
    const imported = await servedHashes(db);
    const services = db.collection('services');
    const [damaged, lost] = await services.find().sort({ id: 1 }).limit(2).toArray();
    await services.updateOne({ id: damaged!.id }, { $set: { _search: [] } });
    await services.deleteOne({ id: lost!.id });

    const run = runScript('scripts/rebuild.ts', db);
    expect(await run.exited).toBe(0);
    const counts = Object.entries(imported).map(([name, ids]) => `${Object.keys(ids).length} ${name}`);
    expect(run.output()).toContain(`Rebuilt ${counts.join(', ')}`);
    expect(await servedHashes(db)).toEqual(imported);
    expect((await services.findOne({ id: damaged!.id }))?._search).toEqual(damaged!._search);
  });

  it('refuses an unknown option with exit 2 and one line saying which, touching nothing', async () => {
    const db = databaseNamed('rebuild_refused');
    const run = runScript('scripts/rebuild.ts', db, ['--everything']);
    expect(await run.exited).toBe(2);
    expect(run.output().trim()).toMatch(/^[^\n]*'--everything'[^\n]*$/);
    expect(await db.listCollections().toArray()).toEqual([]);
  });
});
