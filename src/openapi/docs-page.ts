import { swaggerUiVersion } from './swagger-ui-assets.ts';

/** The file name of the page's own script; a script file rather than inline, which our CSP forbids. */
export const DOCS_SCRIPT = 'reference.js';

/**
 * The reference page. Every URL in it is relative (the page is /docs, its files /docs/…, the document
 * /openapi.json), so it also works behind a proxy that serves the API under a path prefix.
 */
const asset = (file: string) => `docs/${file}?v=${swaggerUiVersion}`;

export const docsHtml = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>HSDS 3.0 API reference</title>
    <link rel="stylesheet" href="${asset('swagger-ui.css')}">
    <link rel="stylesheet" href="${asset('index.css')}">
    <link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32">
    <link rel="icon" type="image/png" href="${asset('favicon-16x16.png')}" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${asset('swagger-ui-bundle.js')}"></script>
    <script src="docs/${DOCS_SCRIPT}"></script>
  </body>
</html>
`;

// validatorUrl: null, or Swagger UI sends the document to validator.swagger.io.
export const docsScript = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: new URL('openapi.json', document.baseURI).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
  });
});
`;

/**
 * Only this server's own files and the API itself; Swagger UI styles elements inline and draws icons as
 * data: URIs, so those two are allowed.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
