import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import { publicBaseUrl } from '../http/public-url.ts';
import { openApiDocument } from './document.ts';

/** The profile page: our implementation decisions, where the specification leaves them to us. */
const profileMarkdown = readFileSync(new URL('../../docs/profile.md', import.meta.url), 'utf8');

export function openApiRoutes(publicUrl: string | undefined): Router {
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument(publicBaseUrl(ctx, publicUrl));
  });
  router.get('/profile', (ctx) => {
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = profileMarkdown;
  });
  return router;
}
