import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  changesIn,
  CursorGone,
  feedRange,
  parseCursor,
  type FeedPosition,
  type FeedRange,
} from '../db/change-feed.ts';
import { HEARTBEAT, sendEventStream, type ServerSentEvent } from '../http/event-stream.ts';
import { sendNdjson } from '../http/ndjson.ts';
import { HttpProblem, invalidParameter } from '../http/problem.ts';
import { queryInteger } from '../http/query-integer.ts';
import { refuseRepeated } from '../http/repeated-parameters.ts';
import type { QueryContext } from './endpoints.ts';
import type { ResponseCache } from './response-cache.ts';

/** How many changes an answer (or, live, one read of the feed) gives at most, and by default. */
export const MAX_CHANGES = 10_000;
export const DEFAULT_CHANGES = 1_000;

/** How often a live stream looks for new changes, and how long it stays silent before a heartbeat. */
const POLL_MS = 1_000;
const HEARTBEAT_MS = 15_000;

export const ChangesQuery = z.strictObject({
  after: z.string().optional(),
  limit: queryInteger(1, MAX_CHANGES).default(DEFAULT_CHANGES),
});

/**
 * `GET /changes`: the change feed (src/db/change-feed.ts), beyond the specification. NDJSON, one change
 * a line, after the cursor `after` (from the start without it), at most `limit`: an empty answer means
 * the client is up to date. With `Accept: text/event-stream`, the same changes as server-sent events,
 * then live ones as they are published, resumed after `Last-Event-ID` when the client reconnects.
 */
export function changesHandler({ db, stopping }: QueryContext, cache?: ResponseCache) {
  /**
   * The published range after a position; when it has changes, this server's kept answers are made no
   * older than they are, for the client fetching the records they name.
   */
  const readRange = async (from: FeedPosition | undefined) => {
    const range = await feedRange(db, from);
    if (range.through > range.after) await cache?.catchUp(performance.now());
    return range;
  };
  return async (ctx: Context) => {
    const live = ctx.accepts('application/x-ndjson', 'text/event-stream') === 'text/event-stream';
    const { after, limit } = parseQuery(ctx.query, live ? ctx.get('Last-Event-ID') : '');
    // Checked before anything is sent: a cursor the feed cannot answer is a 410 either way.
    const range = await answerable(() => readRange(after));
    if (!live) return sendNdjson(ctx, changesIn(db, range, limit));
    sendEventStream(ctx, stopping, async function* (signal) {
      let from = after;
      let quietSince = Date.now();
      // The first pass reads the range already checked.
      let next: FeedRange | undefined = range;
      while (!signal.aborted) {
        let sent = 0;
        const reading = next ?? (await readRange(from));
        next = undefined;
        for await (const line of changesIn(db, reading, limit)) {
          sent++;
          from = parseCursor(line.cursor);
          yield { id: line.cursor, data: JSON.stringify(line) } satisfies ServerSentEvent;
        }
        if (sent === limit) continue;
        if (sent > 0) quietSince = Date.now();
        else if (Date.now() - quietSince >= HEARTBEAT_MS) {
          yield HEARTBEAT;
          quietSince = Date.now();
        }
        await sleep(POLL_MS, undefined, { signal }).catch(() => {});
      }
    });
  };
}

function parseQuery(query: Context['query'], lastEventId: string) {
  refuseRepeated(query, Object.keys(ChangesQuery.shape));
  const parsed = ChangesQuery.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys')
      throw invalidParameter(issue.keys[0]!, 'is not a parameter of /changes (after, limit)');
    throw invalidParameter(String(issue.path[0]), issue.message);
  }
  // A reconnecting event stream resumes from its last event: it asks again with the URL it began with.
  const resumed = lastEventId !== '';
  const cursor = resumed ? lastEventId : parsed.data.after;
  if (cursor === undefined) return { limit: parsed.data.limit };
  const after = parseCursor(cursor);
  if (!after) {
    // A header, and so a parameter in OpenAPI's terms (`in: header`), named as such.
    if (resumed) throw invalidParameter('Last-Event-ID', 'is not a cursor this feed gave');
    throw invalidParameter('after', 'must be a cursor this feed gave (a line’s `cursor`)');
  }
  return { after, limit: parsed.data.limit };
}

/** The feed's range after the cursor; a 410 naming the oldest cursor kept when it cannot be answered. */
async function answerable(read: () => Promise<FeedRange>): Promise<FeedRange> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof CursorGone)) throw error;
    throw new HttpProblem(
      410,
      `This cursor can no longer be answered: ${error.message}. Read the feed again from its start ` +
        '(without after): it lists every record served now, and what it does not list is gone.',
      { extensions: error.oldest === undefined ? {} : { oldest_cursor: error.oldest } },
    );
  }
}
