import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import { publicBaseUrl } from '../http/public-url.ts';
import { docsRoutes } from './docs-routes.ts';
import type { Config } from '../config.ts';
import { servedDocument } from './served-document.ts';

/** The profile page: our implementation decisions, where the specification leaves them to us. */
const profileMarkdown = readFileSync(new URL('../../docs/profile.md', import.meta.url), 'utf8');

/** What describes the API: the OpenAPI document, the profile and the interactive reference. */
export function openApiRoutes({
  publicUrl,
  managementPrefix,
}: Pick<Config, 'publicUrl' | 'managementPrefix'>): Router {
  const router = new Router();
  const openApiJson = servedDocument(managementPrefix);
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApiJson(publicBaseUrl(ctx, publicUrl));
  });
  router.get('/profile', (ctx) => {
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = profileMarkdown;
  });
  router.use(docsRoutes().routes());
  return router;
}
