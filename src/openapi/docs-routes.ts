import { createReadStream } from 'node:fs';
import Router from '@koa/router';
import { DOCS_CONTENT_SECURITY_POLICY, DOCS_SCRIPT, docsHtml, docsScript } from './docs-page.ts';
import { swaggerUiAsset } from './swagger-ui-assets.ts';

/** Asset URLs carry the swagger-ui-dist version, so they can be cached for good. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** GET /docs: the interactive API reference (Swagger UI from swagger-ui-dist), with no request off the server. */
export function docsRoutes(): Router {
  const router = new Router();
  router.get('/docs', (ctx) => {
    // The router also matches /docs/, where the page's relative URLs would point one level too deep.
    if (ctx.path.endsWith('/')) return ctx.redirect('../docs');
    ctx.set('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = docsHtml;
  });
  router.get('/docs/:file', (ctx) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.params.file === DOCS_SCRIPT) {
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = docsScript;
      return;
    }
    const asset = swaggerUiAsset(ctx.params.file ?? '');
    if (!asset) return; // a 404, from the error handler
    ctx.set('Cache-Control', ASSET_CACHE_CONTROL);
    ctx.type = asset.type;
    ctx.body = createReadStream(asset.path);
  });
  return router;
}
