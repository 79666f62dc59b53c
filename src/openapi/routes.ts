import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import { etag } from '../http/etag.ts';
import { publicBaseUrl } from '../http/public-url.ts';
import { docsRoutes } from './docs-routes.ts';
import type { Config } from '../config.ts';
import { PROFILE_CONTENT_SECURITY_POLICY, profileHtml } from './profile-page.ts';
import { servedDocument } from './served-document.ts';

/** The profile page: our implementation decisions, where the specification leaves them to us. */
const profileMarkdown = readFileSync(new URL('../../docs/profile.md', import.meta.url), 'utf8');
/** The same, rendered once, for browsers. */
const profilePage = profileHtml(profileMarkdown);

/** What describes the API: the OpenAPI document, the profile and the interactive reference. */
export function openApiRoutes({
  publicUrl,
  managementPrefix,
  cacheControl,
}: Pick<Config, 'publicUrl' | 'managementPrefix' | 'cacheControl'>): Router {
  const router = new Router();
  const openApiJson = servedDocument(managementPrefix);
  const cached = etag(cacheControl);
  router.get('/openapi.json', cached, (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApiJson(publicBaseUrl(ctx, publicUrl));
  });
  router.get('/profile', cached, (ctx) => {
    ctx.vary('Accept');
    // A browser asks for HTML before anything else; no Accept, or */*, gets the Markdown.
    if (ctx.accepts('text/markdown', 'text/html') === 'text/html') {
      ctx.set('Content-Security-Policy', PROFILE_CONTENT_SECURITY_POLICY);
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = profilePage;
      return;
    }
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = profileMarkdown;
  });
  router.use(docsRoutes().routes());
  return router;
}
