import { MongoClient } from 'mongodb';
import { z } from 'zod';
import { booleanFlag } from './boolean-flag.ts';
import { LOGIN_PATTERN, LOGIN_RULE } from './management/user-input.ts';
import { DEFAULT_MAX_MISSING_SHARE } from './ingest/replace.ts';
import { sourceName } from './ingest/source-name.ts';
import { feedUrlProblem, headerProblem } from './harvest/feed-url.ts';
import { OFFSETS, parseOffset } from './hours/weekly-hours.ts';

/**
 * A whole number in decimal digits, from `min` to `max`: `0x1F90`, `0b11`, `8080.0` or `1e3`, which
 * Number() would read, are refused.
 */
const integer = (min: number, max = Number.MAX_SAFE_INTEGER, messages: { min?: string; max?: string } = {}) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number, in decimal digits')
    .transform(Number)
    .pipe(z.number().min(min, messages.min).max(max, messages.max));

/** 0: a port the system chooses (a test's, say); logged once listening. */
const port = integer(0, 65535);

/** A feed the server harvests on its own (HSDS_HARVEST; docs/import.md). */
const HarvestFeed = z
  .strictObject({
    url: z.url().superRefine((url, context) => {
      const problem = feedUrlProblem(new URL(url));
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    }),
    source: sourceName.optional(),
    interval_minutes: z.number().min(1).max(525_600),
    headers: z
      .record(z.string(), z.string())
      .superRefine((headers, context) => {
        for (const [name, value] of Object.entries(headers)) {
          const problem = headerProblem(name, value);
          if (problem !== undefined) context.addIssue({ code: 'custom', message: problem, path: [name] });
        }
      })
      .default({}),
    full: z.boolean().default(false),
    replace: z.boolean().default(false),
    force: z.boolean().default(false),
  })
  .refine((feed) => !feed.force || feed.replace, 'force goes with replace');

/** More validation workers would only hold memory (~60 MiB each): one keeps ahead of an import (import.ts). */
export const MAX_IMPORT_WORKERS = 4;

/**
 * Every setting comes from the environment (twelve-factor); each variable is documented in docs/configuration.md.
 * Unset and blank variables both mean "use the default", so `FOO=` in an env file does not break start-up.
 */
const EnvironmentSchema = z
  .object({
    PORT: port.default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    MONGODB_URI: z
      .string()
      .regex(/^mongodb(\+srv)?:\/\/.+/, 'must be a mongodb:// or mongodb+srv:// connection string')
      .superRefine((uri, context) => {
        // The driver's own reading (options, hosts, ports), without connecting: refused here, once.
        const problem = connectionStringProblem(uri);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    HSDS_DB_NAME: z
      .string()
      .regex(/^[^/\\. "$*<>:|?]{1,63}$/, 'must be a valid MongoDB database name')
      .default('hsds'),
    HSDS_DB_TIMEOUT_MS: integer(100, 120_000).default(5000),
    // Below the import lease's 45 s: an import whose lease goes unrenewed that long loses it anyway.
    HSDS_IMPORT_OUTAGE_MS: integer(0, 40_000).default(30_000),
    HSDS_IMPORT_WORKERS: integer(0, MAX_IMPORT_WORKERS).optional(),
    HSDS_TOMBSTONE_DAYS: integer(0, 3650).default(30),
    HSDS_REPLACE_MAX_MISSING: z.coerce.number().min(0).max(1).default(DEFAULT_MAX_MISSING_SHARE),
    HSDS_HARVEST: z
      .string()
      .transform((text, context) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          context.addIssue({ code: 'custom', message: 'must be a JSON array of feeds' });
          return z.NEVER;
        }
      })
      .pipe(z.array(HarvestFeed))
      .default([]),
    HSDS_DATA_DIR: z.string().min(1).default('.data'),
    HSDS_EMBEDDED: z.enum(['auto', 'mongod', 'standin']).default('auto'),
    // Not 0: sharers find the embedded database at this port (the driver refuses port 0 in a URI).
    HSDS_EMBEDDED_DB_PORT: integer(1, 65535).default(27217),
    HSDS_SEED: booleanFlag.optional(),
    HSDS_PUBLIC_URL: z
      .url({ protocol: /^https?$/ })
      .refine(
        (url) => !/[?#]/.test(url),
        'must not have a query or fragment: links are made by appending paths',
      )
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
    HSDS_TRUST_PROXY: booleanFlag.default(false),
    HSDS_PROXY_HOPS: integer(1, 16).default(1),
    HSDS_BODY_LIMIT_BYTES: integer(1024).default(1024 * 1024),
    HSDS_SHUTDOWN_TIMEOUT_MS: integer(0, 3_600_000, { max: 'must be at most an hour' }).default(10_000),
    HSDS_REQUEST_TIMEOUT_MS: integer(1000, 86_400_000, {
      min: 'must be at least a second',
      max: 'must be at most a day',
    }).default(300_000),
    HSDS_CORS_ORIGIN: z.string().min(1).default('*'),
    HSDS_CACHE_CONTROL: z.string().min(1).default('public, max-age=60'),
    HSDS_DEFAULT_TIMEZONE: z
      .string()
      .trim()
      .transform((value, context) => {
        const offset = parseOffset(value);
        if (offset !== undefined && OFFSETS.includes(offset)) return offset;
        context.addIssue({
          code: 'custom',
          message: "must be a UTC offset in whole quarter hours within ±14:00, like 'Z', '-05:00' or '+0530'",
        });
        return z.NEVER;
      })
      .default(0),
    HSDS_UNKNOWN_PARAMETERS: z
      .enum(['reject', 'ignore'], { error: "must be 'reject' or 'ignore'" })
      .default('reject'),
    HSDS_RESPONSE_CACHE_MB: integer(0, 1_048_576).default(128),
    HSDS_POSTCODES_FILE: z.string().min(1).optional(),
    HSDS_MANAGEMENT_PREFIX: z
      .string()
      .regex(/^\/[\w-]+(\/[\w-]+)*$/, 'must be a path like /management')
      .default('/management'),
    HSDS_ADMIN_LOGIN: z.string().regex(LOGIN_PATTERN, LOGIN_RULE).optional(),
    HSDS_ADMIN_CODE: z.string().min(12, 'must be at least 12 characters').optional(),
    HSDS_META_SYSTEM: z.string().min(1).default('hsds-api'),
    HSDS_META_LOG_READS: booleanFlag.default(false),
    HSDS_META_BODY_LIMIT_BYTES: integer(0).default(16 * 1024),
    HSDS_META_RETENTION_DAYS: integer(0, 36_500).default(0),
    HSDS_IMPORT_JSON_LIMIT_BYTES: integer(1024).default(32 * 1024 * 1024),
    HSDS_IMPORT_BODY_LIMIT_BYTES: integer(1024).default(512 * 1024 * 1024),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, context) => {
    // The first administrator needs both: one without the other would be silently ignored.
    for (const [name, other] of [
      ['HSDS_ADMIN_CODE', 'HSDS_ADMIN_LOGIN'],
      ['HSDS_ADMIN_LOGIN', 'HSDS_ADMIN_CODE'],
    ] as const) {
      if (env[name] === undefined && env[other] !== undefined)
        context.addIssue({ code: 'custom', path: [name], message: `must be set with ${other}` });
    }
  });

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof EnvironmentSchema>) {
  return {
    port: env.PORT,
    host: env.HOST,
    mongodbUri: env.MONGODB_URI,
    dbName: env.HSDS_DB_NAME,
    dbTimeoutMs: env.HSDS_DB_TIMEOUT_MS,
    /** How long the import CLI retries a step while the database is out of reach, before it exits 2. */
    importOutageMs: env.HSDS_IMPORT_OUTAGE_MS,
    /** Worker threads validating an import's records; unset: the import's automatic choice (import.ts). */
    importWorkers: env.HSDS_IMPORT_WORKERS,
    /** The share of a source's records a replacing import may lack before it stops unforced. */
    replaceMaxMissingShare: env.HSDS_REPLACE_MAX_MISSING,
    /** How long a deleted record's id answers 410 Gone (then 404); 0: never. */
    tombstoneDays: env.HSDS_TOMBSTONE_DAYS,
    /** Feeds harvested on their own intervals, one at a time (src/harvest/harvest-schedule.ts). */
    harvests: env.HSDS_HARVEST.map(({ interval_minutes: minutes, ...feed }) => ({
      ...feed,
      intervalMs: minutes * 60_000,
    })),
    dataDir: env.HSDS_DATA_DIR,
    embedded: env.HSDS_EMBEDDED,
    embeddedDbPort: env.HSDS_EMBEDDED_DB_PORT,
    // Seeding an external database by default could write sample data into production.
    seed: env.HSDS_SEED ?? env.MONGODB_URI === undefined,
    publicUrl: env.HSDS_PUBLIC_URL,
    trustProxy: env.HSDS_TRUST_PROXY,
    proxyHops: env.HSDS_PROXY_HOPS,
    bodyLimitBytes: env.HSDS_BODY_LIMIT_BYTES,
    shutdownTimeoutMs: env.HSDS_SHUTDOWN_TIMEOUT_MS,
    /** Time to receive a whole request, body included (Node's default): an upload of `POST /import` too. */
    requestTimeoutMs: env.HSDS_REQUEST_TIMEOUT_MS,
    corsOrigin: env.HSDS_CORS_ORIGIN,
    cacheControl: env.HSDS_CACHE_CONTROL,
    /** What the core endpoints do with a parameter they do not take: a 400 naming it, or nothing. */
    unknownParameters: env.HSDS_UNKNOWN_PARAMETERS,
    /** Minutes from UTC of schedules that state no time zone, for the opening filters. */
    defaultOffset: env.HSDS_DEFAULT_TIMEZONE,
    /** Memory for the directory's answers kept to send again (src/directory/response-cache.ts); 0: none. */
    responseCacheBytes: env.HSDS_RESPONSE_CACHE_MB * 1024 * 1024,
    postcodesFile: env.HSDS_POSTCODES_FILE,
    managementPrefix: env.HSDS_MANAGEMENT_PREFIX,
    admin:
      env.HSDS_ADMIN_LOGIN !== undefined && env.HSDS_ADMIN_CODE !== undefined
        ? { login: env.HSDS_ADMIN_LOGIN, code: env.HSDS_ADMIN_CODE }
        : undefined,
    metaSystem: env.HSDS_META_SYSTEM,
    metaLogReads: env.HSDS_META_LOG_READS,
    metaBodyLimitBytes: env.HSDS_META_BODY_LIMIT_BYTES,
    /** Days meta entries are kept; 0 keeps them for good (an audit trail is not ours to discard unasked). */
    metaRetentionDays: env.HSDS_META_RETENTION_DAYS,
    importBodyLimitBytes: env.HSDS_IMPORT_BODY_LIMIT_BYTES,
    importJsonLimitBytes: env.HSDS_IMPORT_JSON_LIMIT_BYTES,
    logLevel: env.LOG_LEVEL,
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; a bad value throws one ConfigError naming every offending variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Blank (empty, or only spaces) is unset: a number coerced from spaces would be 0, not the default.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value?.trim() !== ''));
  const parsed = EnvironmentSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return toConfig(parsed.data);
}

/** Why the driver would refuse this connection string (an unknown option, a bad port), if it would. */
function connectionStringProblem(uri: string): string | undefined {
  try {
    // Reads the string and its options; connects only when first used.
    void new MongoClient(uri);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
