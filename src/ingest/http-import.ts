import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { requireAccess } from '../auth/access-control.ts';
import { protocolErrors } from '../auth/protocol-errors.ts';
import { booleanFlag } from '../boolean-flag.ts';
import type { Config } from '../config.ts';
import { noStore } from '../http/no-store.ts';
import { writesAfterIndexes } from '../http/writes-after-indexes.ts';
import { HttpProblem, invalidParameter } from '../http/problem.ts';
import { refuseRepeated } from '../http/repeated-parameters.ts';
import { refuseOtherCharsets } from '../http/utf8-charset.ts';
import { describeCall } from '../meta/call-description.ts';
import { MetaEntries } from '../meta/entries.ts';
import type { ProtocolDependencies } from '../protocols.ts';
import { importRecords, replaceUnder } from './import.ts';
import { ImportEntries } from './import-entries.ts';
import { ImportLeaseLost } from './import-lease.ts';
import type { InputRecord } from './input-record.ts';
import { recordTypes } from './record-type.ts';
import { sourceName } from './source-name.ts';
import { readBody, spoolBody, spoolDirectory } from './request-body.ts';
import { jsonRecords } from './sources/json-file.ts';
import { readNdjson } from './sources/ndjson.ts';
import { decodeUtf8, type InvalidUtf8Error } from './sources/utf8.ts';

/** How rejections name where a record was: the request body, never a file of ours. */
const SOURCE = 'request body';

export const JSON_TYPES = new Set(['application/json']);
export const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/jsonl']);

/** Unknown parameters are refused: a mistyped `dry_run` must not become a real import. */
export const ImportQuery = z.strictObject({
  type: z.enum(recordTypes, { error: `must be one of ${recordTypes.join(', ')}` }).optional(),
  dry_run: booleanFlag.default(false),
  wait: booleanFlag.default(false),
  source: sourceName.optional(),
  mode: z.enum(['merge', 'replace'], { error: "must be 'merge' or 'replace'" }).default('merge'),
  force: booleanFlag.default(false),
});

/** A received body: its records (read once), and what to clean up afterwards. */
interface ReceivedBody {
  records(): AsyncIterable<InputRecord>;
  discard(): Promise<void>;
}

/** After an import that lost its lease, the import that took it over is likely still running. */
const RETRY_LOST_LEASE_SECONDS = '30';

/** Imports accepted at once (uploading, waiting or running), per process. */
export const MAX_QUEUED_IMPORTS = 8;

/**
 * `POST /import`: bulk loading over HTTP, for aggregators, with the CLI's validation, idempotency and report
 * (`importRecords` underneath). Access-controlled like the management protocol. The body is received whole
 * (JSON in memory, NDJSON spooled to a file) within `importBodyLimitBytes` before anything is written.
 * With `wait=true` the answer is the report; otherwise 202 with a Waiting meta entry, completed with the
 * report when the import has run. Imports run one at a time (`importRecords`).
 */
export function importRoutes({
  db,
  config,
  logger,
  attempts,
  indexed,
}: ProtocolDependencies): Router & { backgroundImportsDone(): Promise<void> } {
  /** Imports whose body is being received, waiting or running. */
  let accepted = 0;
  /** Imports answered 202, until they have run and their entries are complete. */
  const inBackground = new Set<Promise<void>>();
  const tracked = new ImportEntries(new MetaEntries(db), logger);
  const router = new Router();

  const guarded = [noStore, protocolErrors(), writesAfterIndexes(indexed), requireAccess(db, attempts)];
  router.post('/import', ...guarded, async (ctx) => {
    const options = parseQuery(ctx.query);
    // Each accepted import holds its body (in memory for JSON) from its upload until it has run: refuse
    // more, counting those still uploading, rather than run out of memory or disk.
    if (accepted >= MAX_QUEUED_IMPORTS) {
      throw new HttpProblem(503, 'Too many imports are waiting; retry later.', {
        headers: { 'Retry-After': '30' },
      });
    }
    accepted += 1;
    let body: ReceivedBody;
    try {
      body = await receiveBody(ctx, config);
    } catch (error) {
      accepted -= 1;
      throw error;
    }
    const release = async () => {
      accepted -= 1;
      await body.discard();
    };
    // Imports of this process run one at a time: this one waits for those before it.
    const runImport = () =>
      importRecords(db, body.records(), {
        dryRun: options.dry_run,
        type: options.type,
        source: options.source,
        ...(options.mode === 'replace' ? replaceUnder(config, options.force) : {}),
        workers: config.importWorkers,
      }).finally(release);
    if (options.wait) {
      ctx.body = await runImport().catch((error: unknown) => {
        // Not an unexpected failure: it says what happened, and sending the data again finishes the import.
        if (error instanceof ImportLeaseLost) {
          throw new HttpProblem(503, error.message, { headers: { 'Retry-After': RETRY_LOST_LEASE_SECONDS } });
        }
        throw error;
      });
      return;
    }
    const entry = await tracked.open(describeCall(ctx, config)).catch(async (error: unknown) => {
      await release();
      throw error;
    });
    ctx.state.metaEntryId = entry.id;
    ctx.status = 202;
    // Absolute behind a proxy that rewrites paths (HSDS_PUBLIC_URL), else relative to the request.
    ctx.set('Location', `${config.publicUrl ?? ''}/meta/${entry.id}/`);
    ctx.body = entry;
    const running = tracked.complete(entry.id, runImport).finally(() => inBackground.delete(running));
    inBackground.add(running);
  });
  // For a clean shutdown: the imports already accepted run to their end before the database is closed.
  return Object.assign(router, {
    backgroundImportsDone: async () => void (await Promise.allSettled(inBackground)),
  });
}

function parseQuery(query: Context['query']) {
  refuseRepeated(query, Object.keys(ImportQuery.shape));
  const parsed = ImportQuery.safeParse(query);
  if (parsed.success) {
    if (parsed.data.force && parsed.data.mode !== 'replace')
      throw invalidParameter('force', 'goes with mode=replace');
    return parsed.data;
  }
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys')
    throw invalidParameter(issue.keys[0]!, 'is not a parameter of /import');
  throw invalidParameter(String(issue.path[0]), issue.message);
}

async function receiveBody(ctx: Context, config: Config): Promise<ReceivedBody> {
  const encoding = ctx.get('content-encoding').toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw new HttpProblem(415, 'Compressed request bodies are not accepted; send the body uncompressed.');
  }
  refuseOtherCharsets(ctx);
  const type = ctx.request.type.toLowerCase();
  if (JSON_TYPES.has(type)) {
    const limit = Math.min(config.importBodyLimitBytes, config.importJsonLimitBytes);
    const body = await readBody(ctx.req, limit).catch((error: unknown) => {
      if (error instanceof HttpProblem && error.status === 413) {
        throw new HttpProblem(413, `A JSON body may be at most ${limit} bytes; send larger loads as NDJSON.`);
      }
      throw error;
    });
    // A JSON body is one document: bytes that are not UTF-8 leave it unreadable, as malformed JSON does.
    let text: string;
    try {
      text = decodeUtf8(body);
    } catch (error) {
      throw new HttpProblem(400, `The request body is not UTF-8: ${(error as InvalidUtf8Error).message}.`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      // The parser's words name where (`… in JSON at position 24`), as an NDJSON line's rejection does.
      throw new HttpProblem(400, `The request body is not valid JSON: ${(error as Error).message}.`);
    }
    return { records: () => jsonRecords(parsed, SOURCE), discard: async () => {} };
  }
  if (NDJSON_TYPES.has(type)) {
    const file = await spoolBody(ctx.req, config.importBodyLimitBytes, spoolDirectory(config.dataDir)).catch(
      (error: unknown) => {
        throw cannotSpool(error, ctx);
      },
    );
    return {
      records: () => readNdjson(createReadStream(file), SOURCE),
      discard: () => rm(file, { force: true }),
    };
  }
  throw new HttpProblem(
    415,
    'The request body must be application/json (a record or an array of records) or ' +
      'application/x-ndjson or application/jsonl (a record a line).',
  );
}

/** File system failures that say the data directory cannot take the upload (not the request's fault). */
const STORAGE_FAILURES = new Set(['EACCES', 'EPERM', 'ENOTDIR', 'EROFS', 'ENOSPC', 'EDQUOT', 'EISDIR']);

/**
 * A spool that cannot be written is the server's problem, told to the operator in the log and to the
 * client as a 503 that says what it can do meanwhile; any other failure goes on as it is.
 */
function cannotSpool(error: unknown, ctx: Context): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined || !STORAGE_FAILURES.has(code)) return error;
  ctx.state.logger.error({ err: error }, 'NDJSON upload cannot be stored: is HSDS_DATA_DIR writable?');
  return new HttpProblem(
    503,
    'The server cannot store NDJSON uploads at the moment; retry later, or send the records as JSON.',
    { headers: { 'Retry-After': '60' } },
  );
}
