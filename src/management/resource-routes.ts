import type Router from '@koa/router';
import type { z } from 'zod';
import { parseListParameters, type ListFields, type ListRequest } from './list-parameters.ts';
import { parseBody, sameId } from './parse-body.ts';

/** A collection the management protocol lists, creates, reads, replaces and deletes by id. */
export interface ResourceStore<Created, Replacement> {
  list(request: ListRequest): Promise<unknown>;
  create(input: Created): Promise<unknown>;
  get(id: string): Promise<unknown>;
  update(id: string, input: Replacement): Promise<unknown>;
  delete(id: string): Promise<unknown>;
}

export interface ResourceShape<Create extends z.ZodType, Replace extends z.ZodType> {
  /** The path of the collection (`/users`); a record is `${path}/:${idParameter}`. */
  path: string;
  idParameter: string;
  listFields: ListFields;
  create: Create;
  /** A replacement may repeat the record's id, but not name another. */
  replace: Replace;
}

/** The five routes of one management resource: list and create on the collection, get, PUT and DELETE by id. */
export function resourceRoutes<Create extends z.ZodType, Replace extends z.ZodType<{ id?: string }>>(
  router: Router,
  store: ResourceStore<z.output<Create>, z.output<Replace>>,
  { path, idParameter, listFields, create, replace }: ResourceShape<Create, Replace>,
): void {
  const record = `${path}/:${idParameter}`;
  const idOf = (params: Record<string, string | undefined>) => {
    const id = params[idParameter];
    if (id === undefined) throw new Error(`route without :${idParameter}`);
    return id;
  };
  router.get(path, async (ctx) => {
    ctx.body = await store.list(parseListParameters(listFields, ctx.query));
  });
  router.post(path, async (ctx) => {
    ctx.body = await store.create(parseBody(create, ctx.request.body));
  });
  router.get(record, async (ctx) => {
    ctx.body = await store.get(idOf(ctx.params));
  });
  router.put(record, async (ctx) => {
    const replacement = parseBody(replace, ctx.request.body);
    ctx.body = await store.update(sameId(replacement.id, idOf(ctx.params)), replacement);
  });
  router.delete(record, async (ctx) => {
    ctx.body = await store.delete(idOf(ctx.params));
  });
}
