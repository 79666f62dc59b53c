import type { Context } from 'koa';
import { credentialsInQuery, credentialsOf } from '../auth/credentials.ts';
import type { Config } from '../config.ts';
import { dayOf, type MetaEntry } from './entry.ts';
import { isProtectedPath } from './recorded-calls.ts';
import { truncateText } from './json-text.ts';
import { redactSecrets } from './redact.ts';

/** Stands for a response body sent as a stream: its bytes were never held, so they are not recorded. */
export const STREAM_BODY = '[stream]';
/** Stands for a request body the server did not parse as JSON (a streamed import, malformed JSON). */
export const UNPARSED_BODY = '[body not recorded]';
const NON_JSON_BODY = '[body not JSON]';
const APPID_LIMIT = 256;

export type CallDescription = Omit<MetaEntry, 'id' | 'response_body' | 'status'>;

/** What a call made without authenticating keeps of its query and response: enough to see what was tried. */
const BRIEF_LIMIT = 512;
/** Paths are recorded up to this many bytes: anyone can send a long one. */
const PATH_LIMIT = 1024;
const NOT_RECORDED = '[not recorded for an unauthenticated call]';

/**
 * Whether the call is recorded briefly: one to a path behind access control that did not authenticate
 * (refused, or to a path or method that does not exist there). Anyone can make those, and they must not
 * be able to fill the log with their headers, bodies and the answers to them.
 */
const recordedBriefly = (ctx: Context, config: Config) =>
  ctx.state.caller === undefined && isProtectedPath(ctx.path, config);

/** How much of the response body the meta entry of this call keeps. */
export const responseBodyLimit = (ctx: Context, config: Config) =>
  recordedBriefly(ctx, config) ? BRIEF_LIMIT : config.metaBodyLimitBytes;

/**
 * The request side of a meta entry, secrets redacted before anything leaves this function: the caller's
 * login (or, for a call that did not authenticate, the login it claimed in its headers or query, so
 * attacks show; never its code), and the query, headers and parsed body as JSON text cut to
 * `metaBodyLimitBytes` (a call recorded briefly keeps a short query and no headers or body).
 */
export function describeCall(ctx: Context, config: Config, at = new Date()): CallDescription {
  const limit = config.metaBodyLimitBytes;
  const appid = ctx.state.caller?.login ?? credentialsOf(ctx)?.login ?? credentialsInQuery(ctx.query)?.login;
  const parsedBody: unknown = ctx.request.body;
  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  const brief = recordedBriefly(ctx, config);
  return {
    timestamp: dayOf(at),
    recorded_at: at.toISOString(),
    ...(appid ? { appid: truncateText(appid, APPID_LIMIT) } : {}),
    system: config.metaSystem,
    path: truncateText(ctx.path, PATH_LIMIT),
    verb: ctx.method,
    request_parameters: redactedJson(ctx.query, brief ? BRIEF_LIMIT : limit),
    request_headers: brief ? NOT_RECORDED : redactedJson(ctx.headers, limit),
    request_body: brief
      ? hasBody
        ? NOT_RECORDED
        : ''
      : parsedBody !== undefined
        ? redactedJson(parsedBody, limit)
        : hasBody
          ? UNPARSED_BODY
          : '',
  };
}

/** A response body as a meta entry keeps it: redacted JSON text, or a marker for what cannot be. */
export function describeBody(body: unknown, limitBytes: number): string {
  if (body === null || body === undefined) return '';
  if (typeof (body as { pipe?: unknown }).pipe === 'function') return STREAM_BODY;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      return redactedJson(JSON.parse(body.toString()), limitBytes);
    } catch {
      return NON_JSON_BODY;
    }
  }
  return redactedJson(body, limitBytes);
}

const redactedJson = (value: unknown, limitBytes: number) =>
  truncateText(JSON.stringify(redactSecrets(value)) ?? '', limitBytes);
