import { parse } from 'marked';

/** Enough style to read the profile: a column of text, code set off, tables ruled. */
const STYLE = `
  body { max-width: 52rem; margin: 2rem auto; padding: 0 1rem; font: 16px/1.55 system-ui, sans-serif; color: #1f2328; }
  h1, h2, h3 { line-height: 1.25; margin-top: 2rem; }
  a { color: #0a58ca; }
  code { font: 0.9em ui-monospace, monospace; background: #f3f4f6; padding: 0.1em 0.3em; border-radius: 3px; }
  pre { background: #f3f4f6; padding: 0.75rem 1rem; overflow-x: auto; }
  pre code { padding: 0; }
  table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
  th, td { border: 1px solid #d0d7de; padding: 0.35rem 0.6rem; text-align: left; vertical-align: top; }
  th { background: #f6f8fa; }
  tr:nth-child(even) td { background: #fafbfc; }
`;

/** The page has no script and loads nothing: its only style is inline. */
export const PROFILE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The profile as a complete HTML page, for browsers. The Markdown is our own (docs/profile.md), so its
 * rendering is not sanitized.
 */
export function profileHtml(markdown: string): string {
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>HSDS 3.0 API profile</title>
    <style>${STYLE}</style>
  </head>
  <body>
${parse(markdown, { async: false })}
  </body>
</html>
`;
}
