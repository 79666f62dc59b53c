import Router from '@koa/router';
import { authenticateCaller, requireAccess } from '../auth/access-control.ts';
import { credentialsInQuery } from '../auth/credentials.ts';
import { protocolErrors } from '../auth/protocol-errors.ts';
import { jsonBody } from '../http/json-body.ts';
import { noStore } from '../http/no-store.ts';
import { writesAfterIndexes } from '../http/writes-after-indexes.ts';
import type { ProtocolDependencies } from '../protocols.ts';
import { AccessEntryStore, accessEntryListFields } from './access-entries.ts';
import { accessEntryInput } from './access-entry-input.ts';
import { parseListParameters } from './list-parameters.ts';
import { resourceRoutes } from './resource-routes.ts';
import { SourceStore, sourceListFields } from './sources.ts';
import { newUserInput, userChangesInput } from './user-input.ts';
import { UserStore, userListFields } from './users.ts';

/**
 * The management protocol (spec 4.5) under `config.managementPrefix`: its `/services/` (access entries)
 * would otherwise collide with the core protocol's `/services`. Every path answers with or without the
 * trailing slash. Every request but `GET /users/auth/` needs credentials and a grant (`requireAccess`).
 */
export function managementRoutes({ db, config, attempts, indexed }: ProtocolDependencies): Router {
  const users = new UserStore(db);
  const accessEntries = new AccessEntryStore(db, users);
  // Case-sensitive, as grants are: a path routes here only in the spelling a grant would be checked against.
  const router = new Router({ prefix: config.managementPrefix, sensitive: true });

  router.use(protocolErrors());
  router.use(noStore);
  router.use(writesAfterIndexes(indexed));
  // Authenticates with its own query parameters, so it is the one route ahead of the access check.
  router.get('/users/auth', async (ctx) => {
    const user = await authenticateCaller(db, attempts, ctx.ip, credentialsInQuery(ctx.query));
    // The meta entry names who authenticated, not a login claimed in headers.
    ctx.state.caller = { userId: user.id, login: user.login };
    const request = parseListParameters(accessEntryListFields, ctx.query);
    ctx.body = await accessEntries.list(request, { user_id: user.id });
  });
  router.use(requireAccess(db, attempts));
  router.use(jsonBody(config.bodyLimitBytes));

  resourceRoutes(router, users, {
    path: '/users',
    idParameter: 'user_id',
    listFields: userListFields,
    create: newUserInput,
    replace: userChangesInput,
  });
  resourceRoutes(router, accessEntries, {
    path: '/services',
    idParameter: 'service_id',
    listFields: accessEntryListFields,
    create: accessEntryInput,
    replace: accessEntryInput,
  });
  // Beyond the specification: what imports have loaded, by source (read-only).
  const sources = new SourceStore(db);
  router.get('/sources', async (ctx) => {
    ctx.body = await sources.list(parseListParameters(sourceListFields, ctx.query));
  });
  router.get('/sources/:name', async (ctx) => {
    ctx.body = await sources.get(ctx.params.name!);
  });
  return router;
}
