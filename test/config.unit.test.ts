import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('loadConfig', () => {
  it('has defaults that run the embedded database with sample data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      mongodbUri: undefined,
      dbName: 'hsds',
      dataDir: '.data',
      embedded: 'auto',
      embeddedDbPort: 27217,
      seed: true,
      logLevel: 'info',
    });
  });

  it('does not seed an external database unless asked', () => {
    expect(loadConfig({ MONGODB_URI: 'mongodb://db:27017' }).seed).toBe(false);
    expect(loadConfig({ MONGODB_URI: 'mongodb+srv://cluster.example.net', HSDS_SEED: 'true' }).seed).toBe(
      true,
    );
  });

  it('takes true, 1 and yes, and false, 0 and no, in any case, for every boolean variable', () => {
    const flags = [
      ['HSDS_SEED', 'seed'],
      ['HSDS_TRUST_PROXY', 'trustProxy'],
      ['HSDS_META_LOG_READS', 'metaLogReads'],
    ] as const;
    for (const [variable, setting] of flags) {
      for (const value of ['true', '1', 'yes', 'TRUE', 'Yes'])
        expect(loadConfig({ [variable]: value })[setting], `${variable}=${value}`).toBe(true);
      for (const value of ['false', '0', 'no', 'FALSE', 'No'])
        expect(loadConfig({ [variable]: value })[setting], `${variable}=${value}`).toBe(false);
      for (const value of ['maybe', 'on', '2'])
        expect(() => loadConfig({ [variable]: value })).toThrow(
          `Invalid configuration: ${variable}: must be true, 1 or yes, or false, 0 or no`,
        );
    }
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', MONGODB_URI: '' })).toMatchObject({ port: 8080, mongodbUri: undefined });
  });

  it('strips a trailing slash from the public URL', () => {
    expect(loadConfig({ HSDS_PUBLIC_URL: 'https://api.example.org/hsds/' }).publicUrl).toBe(
      'https://api.example.org/hsds',
    );
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['MONGODB_URI', 'postgres://x'],
    ['HSDS_EMBEDDED', 'docker'],
    ['HSDS_SEED', 'maybe'],
    ['HSDS_PUBLIC_URL', 'ftp://example.org'],
    ['LOG_LEVEL', 'loud'],
    ['HSDS_DB_NAME', 'a/b'],
    ['HSDS_PROXY_HOPS', '0'],
    ['HSDS_ADMIN_LOGIN', 'ro ot'],
  ])('rejects %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: `));
  });

  it('takes the first administrator only whole: a login without a code, or a code without a login, is refused', () => {
    const code = 'a-long-enough-code';
    expect(loadConfig({ HSDS_ADMIN_LOGIN: 'root', HSDS_ADMIN_CODE: code }).admin).toEqual({
      login: 'root',
      code,
    });
    expect(() => loadConfig({ HSDS_ADMIN_LOGIN: 'root' })).toThrow(
      /HSDS_ADMIN_CODE: must be set with HSDS_ADMIN_LOGIN/,
    );
    expect(() => loadConfig({ HSDS_ADMIN_CODE: code })).toThrow(
      /HSDS_ADMIN_LOGIN: must be set with HSDS_ADMIN_CODE/,
    );
  });

  it('keeps meta entries for good unless given a number of days', () => {
    expect(loadConfig({}).metaRetentionDays).toBe(0);
    expect(loadConfig({ HSDS_META_RETENTION_DAYS: '90' }).metaRetentionDays).toBe(90);
    for (const bad of ['-1', '1.5', 'forever'])
      expect(() => loadConfig({ HSDS_META_RETENTION_DAYS: bad })).toThrow(/HSDS_META_RETENTION_DAYS: /);
  });

  it("leaves an import's validation workers to its automatic choice unless given 0 to 4", () => {
    expect(loadConfig({}).importWorkers).toBeUndefined();
    expect(loadConfig({ HSDS_IMPORT_WORKERS: '0' }).importWorkers).toBe(0);
    expect(loadConfig({ HSDS_IMPORT_WORKERS: '2' }).importWorkers).toBe(2);
    for (const bad of ['-1', '1.5', '5', 'all'])
      expect(() => loadConfig({ HSDS_IMPORT_WORKERS: bad })).toThrow(/HSDS_IMPORT_WORKERS: /);
  });

  it('lets a replace lack half of a source and keeps tombstones 30 days, unless told, refusing bad values', () => {
    expect(loadConfig({})).toMatchObject({ replaceMaxMissingShare: 0.5, tombstoneDays: 30 });
    expect(loadConfig({ HSDS_REPLACE_MAX_MISSING: '0.1', HSDS_TOMBSTONE_DAYS: '0' })).toMatchObject({
      replaceMaxMissingShare: 0.1,
      tombstoneDays: 0,
    });
    for (const bad of ['-0.1', '1.5', 'half'])
      expect(() => loadConfig({ HSDS_REPLACE_MAX_MISSING: bad })).toThrow(/HSDS_REPLACE_MAX_MISSING: /);
    for (const bad of ['-1', '2.5', '4000', 'month'])
      expect(() => loadConfig({ HSDS_TOMBSTONE_DAYS: bad })).toThrow(/HSDS_TOMBSTONE_DAYS: /);
  });

  it('keeps 128 MiB of answers to send again unless given another size, 0 for none', () => {
    expect(loadConfig({}).responseCacheBytes).toBe(128 * 1024 * 1024);
    expect(loadConfig({ HSDS_RESPONSE_CACHE_MB: '0' }).responseCacheBytes).toBe(0);
    expect(loadConfig({ HSDS_RESPONSE_CACHE_MB: '16' }).responseCacheBytes).toBe(16 * 1024 * 1024);
    for (const bad of ['-1', '0.5', 'lots'])
      expect(() => loadConfig({ HSDS_RESPONSE_CACHE_MB: bad })).toThrow(/HSDS_RESPONSE_CACHE_MB: /);
  });

  it('places schedules in no stated zone in UTC unless given an offset in whole quarter hours', () => {
    expect(loadConfig({}).defaultOffset).toBe(0);
    expect(loadConfig({ HSDS_DEFAULT_TIMEZONE: '-05:00' }).defaultOffset).toBe(-300);
    expect(loadConfig({ HSDS_DEFAULT_TIMEZONE: '+0530' }).defaultOffset).toBe(330);
    expect(loadConfig({ HSDS_DEFAULT_TIMEZONE: 'Z' }).defaultOffset).toBe(0);
    for (const bad of ['EST', 'America/New_York', '+15:00', '+05:17', '5'])
      expect(() => loadConfig({ HSDS_DEFAULT_TIMEZONE: bad })).toThrow(/HSDS_DEFAULT_TIMEZONE: /);
  });

  it('refuses unknown parameters of the core endpoints unless told to ignore them', () => {
    expect(loadConfig({}).unknownParameters).toBe('reject');
    expect(loadConfig({ HSDS_UNKNOWN_PARAMETERS: 'ignore' }).unknownParameters).toBe('ignore');
    expect(() => loadConfig({ HSDS_UNKNOWN_PARAMETERS: 'warn' })).toThrow(
      /HSDS_UNKNOWN_PARAMETERS: must be 'reject' or 'ignore'/,
    );
  });

  it('refuses what the driver, the timers and links could not use', () => {
    for (const [variable, value, message] of [
      ['MONGODB_URI', 'mongodb://127.0.0.1:27017/?badopt=1', /MONGODB_URI: option badopt is not supported/],
      ['MONGODB_URI', 'mongodb://db:99999/', /MONGODB_URI: .*99999/],
      ['HSDS_SHUTDOWN_TIMEOUT_MS', '3000000000', /HSDS_SHUTDOWN_TIMEOUT_MS: must be at most an hour/],
      ['HSDS_REQUEST_TIMEOUT_MS', '500', /HSDS_REQUEST_TIMEOUT_MS: must be at least a second/],
      ['HSDS_REQUEST_TIMEOUT_MS', '0', /HSDS_REQUEST_TIMEOUT_MS: must be at least a second/],
      ['HSDS_PUBLIC_URL', 'https://api.example.org/hsds?x=1', /HSDS_PUBLIC_URL: must not have a query/],
    ] as const)
      expect(() => loadConfig({ [variable]: value }), value).toThrow(message);
    // A code of spaces is blank, so no code at all.
    expect(() => loadConfig({ HSDS_ADMIN_LOGIN: 'admin', HSDS_ADMIN_CODE: ' '.repeat(12) })).toThrow(
      /HSDS_ADMIN_CODE: must be set with HSDS_ADMIN_LOGIN/,
    );
    expect(
      loadConfig({ MONGODB_URI: 'mongodb+srv://cluster0.example.net/?retryWrites=true' }).mongodbUri,
    ).toBe('mongodb+srv://cluster0.example.net/?retryWrites=true');
  });

  it('reads a blank variable as unset, and numbers only in decimal digits', () => {
    const blank = loadConfig({ PORT: ' ', HSDS_TOMBSTONE_DAYS: '\t', HSDS_RESPONSE_CACHE_MB: '  ' });
    expect(blank).toMatchObject({ port: 8080, tombstoneDays: 30, responseCacheBytes: 128 * 1024 * 1024 });
    expect(loadConfig({ PORT: ' 8081 ' }).port).toBe(8081);
    for (const value of ['0x1F90', '0b11', '8080.0', '1e3', '-1', '+80'])
      expect(() => loadConfig({ PORT: value }), value).toThrow(
        /PORT: must be a whole number, in decimal digits/,
      );
    expect(() => loadConfig({ HSDS_EMBEDDED_DB_PORT: '0' })).toThrow(/HSDS_EMBEDDED_DB_PORT: .*>=1/);
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT: .*; LOG_LEVEL: /);
  });
});
