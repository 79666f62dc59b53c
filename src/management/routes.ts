import Router from '@koa/router';
import type { Middleware } from 'koa';
import { authenticateCaller, requireAccess } from '../auth/access-control.ts';
import { credentialsInQuery } from '../auth/credentials.ts';
import { protocolErrors } from '../auth/protocol-errors.ts';
import { jsonBody } from '../http/json-body.ts';
import { HttpProblem } from '../http/problem.ts';
import type { ProtocolDependencies } from '../protocols.ts';
import { AccessEntryStore, accessEntryListFields } from './access-entries.ts';
import { accessEntryInput } from './access-entry-input.ts';
import { parseListParameters } from './list-parameters.ts';
import { parseBody } from './parse-body.ts';
import { newUserInput, userChangesInput } from './user-input.ts';
import { UserStore, userListFields } from './users.ts';

/**
 * The management protocol (spec 4.5) under `config.managementPrefix`: its `/services/` (access entries)
 * would otherwise collide with the core protocol's `/services`. Every path answers with or without the
 * trailing slash. Every request but `GET /users/auth/` needs credentials and a grant (`requireAccess`).
 */
export function managementRoutes({ db, config, attempts }: ProtocolDependencies): Router {
  const users = new UserStore(db);
  const accessEntries = new AccessEntryStore(db, users);
  // Case-sensitive, as grants are: a path routes here only in the spelling a grant would be checked against.
  const router = new Router({ prefix: config.managementPrefix, sensitive: true });

  router.use(protocolErrors());
  router.use(noStore);
  // Authenticates with its own query parameters, so it is the one route ahead of the access check.
  router.get('/users/auth', async (ctx) => {
    const user = await authenticateCaller(db, attempts, ctx.ip, credentialsInQuery(ctx.query));
    const request = parseListParameters(accessEntryListFields, ctx.query);
    ctx.body = await accessEntries.list(request, { user_id: user.id });
  });
  router.use(requireAccess(db, attempts));
  router.use(jsonBody(config.bodyLimitBytes));

  router.get('/users', async (ctx) => {
    ctx.body = await users.list(parseListParameters(userListFields, ctx.query));
  });
  router.post('/users', async (ctx) => {
    ctx.body = await users.create(parseBody(newUserInput, ctx.request.body));
  });
  router.get('/users/:user_id', async (ctx) => {
    ctx.body = await users.get(pathId(ctx.params, 'user_id'));
  });
  router.put('/users/:user_id', async (ctx) => {
    const changes = parseBody(userChangesInput, ctx.request.body);
    ctx.body = await users.update(sameId(changes.id, pathId(ctx.params, 'user_id')), changes);
  });
  router.delete('/users/:user_id', async (ctx) => {
    ctx.body = await users.delete(pathId(ctx.params, 'user_id'));
  });

  router.get('/services', async (ctx) => {
    ctx.body = await accessEntries.list(parseListParameters(accessEntryListFields, ctx.query));
  });
  router.post('/services', async (ctx) => {
    ctx.body = await accessEntries.create(parseBody(accessEntryInput, ctx.request.body));
  });
  router.get('/services/:service_id', async (ctx) => {
    ctx.body = await accessEntries.get(pathId(ctx.params, 'service_id'));
  });
  router.put('/services/:service_id', async (ctx) => {
    const entry = parseBody(accessEntryInput, ctx.request.body);
    ctx.body = await accessEntries.update(sameId(entry.id, pathId(ctx.params, 'service_id')), entry);
  });
  router.delete('/services/:service_id', async (ctx) => {
    ctx.body = await accessEntries.delete(pathId(ctx.params, 'service_id'));
  });
  return router;
}

/** Users, grants and codes are nobody's to cache. */
const noStore: Middleware = async (ctx, next) => {
  ctx.set('Cache-Control', 'no-store');
  await next();
};

/** The id a PUT addresses; a body may repeat it but not name another. */
function sameId(inBody: string | undefined, inPath: string): string {
  if (inBody !== undefined && inBody !== inPath) {
    throw new HttpProblem(400, "Invalid request body: 'id' must match the id in the path.", {
      errors: [{ field: 'id', message: 'must match the id in the path' }],
    });
  }
  return inPath;
}

/** The id in the path: every route that asks for one has it in its template. */
function pathId(params: Record<string, string | undefined>, name: string): string {
  const id = params[name];
  if (id === undefined) throw new Error(`route without :${name}`);
  return id;
}
