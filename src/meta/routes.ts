import Router from '@koa/router';
import type { Document } from 'mongodb';
import { requireAccess } from '../auth/access-control.ts';
import { invalidBody, protocolErrors } from '../auth/protocol-errors.ts';
import { jsonBody } from '../http/json-body.ts';
import { pageHeader } from '../http/paging.ts';
import { notFound } from '../http/problem.ts';
import { parseBody, sameId } from '../management/parse-body.ts';
import type { ProtocolDependencies } from '../protocols.ts';
import { noStore } from '../http/no-store.ts';
import { writesAfterIndexes } from '../http/writes-after-indexes.ts';
import { MetaEntries, type MetaFields } from './entries.ts';
import { dayOf } from './entry.ts';
import { MetaEntryUpdate, NewMetaEntry } from './entry-body.ts';
import { parsePaging } from './list-query.ts';
import { redactSecrets } from './redact.ts';

/**
 * The meta protocol (spec 4.6) at `/meta/`: list (newest first, paged), create, read and update meta
 * entries. Every route is access-controlled; bodies are validated and their secrets redacted before they
 * are stored, like the recorder's.
 */
export function metaRoutes({ db, config, attempts, indexed }: ProtocolDependencies): Router {
  const entries = new MetaEntries(db);
  const router = new Router();
  const guarded = [
    noStore,
    protocolErrors(),
    writesAfterIndexes(indexed),
    requireAccess(db, attempts),
    jsonBody(config.bodyLimitBytes),
  ];
  const missing = (id: string) => notFound(`No meta entry with id '${id}'.`);

  router.get('/meta', ...guarded, async (ctx) => {
    const { page, perPage } = parsePaging(ctx.query);
    const { total, items } = await entries.page(page, perPage);
    ctx.body = { ...pageHeader(total, page, perPage, items.length), contents: items };
  });

  router.post('/meta', ...guarded, async (ctx) => {
    const fields = redactSecrets(parseBody(NewMetaEntry, ctx.request.body)) as Partial<MetaFields>;
    const now = new Date();
    ctx.body = await entries.create({ timestamp: dayOf(now), ...fields, recorded_at: now.toISOString() });
  });

  router.get('/meta/:meta_id', ...guarded, async (ctx) => {
    const entry = await entries.find(ctx.params.meta_id!);
    if (!entry) throw missing(ctx.params.meta_id!);
    ctx.body = entry;
  });

  router.put('/meta/:meta_id', ...guarded, async (ctx) => {
    const id = ctx.params.meta_id!;
    const {
      id: givenId,
      recorded_at: givenRecordedAt,
      ...fields
    } = parseBody(MetaEntryUpdate, ctx.request.body);
    sameId(givenId, id);
    const current = await entries.find(id);
    if (!current) throw missing(id);
    if (givenRecordedAt !== undefined && givenRecordedAt !== current.recorded_at) {
      throw invalidBody([
        { field: 'recorded_at', message: 'is set when the entry is created and cannot be changed' },
      ]);
    }
    // An update document needs at least one change: a body with none leaves the entry as it is.
    const updated =
      Object.keys(fields).length > 0 ? await entries.update(id, redactSecrets(fields) as Document) : current;
    if (!updated) throw missing(id);
    ctx.body = updated;
  });

  return router;
}
