import { Marked, type Tokens } from 'marked';

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

/** A heading's anchor as GitHub makes it, which the profile's own links use: `Change feed (our extension)` → `change-feed-our-extension`. */
export const headingAnchor = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

/**
 * Headings with the anchors the profile links to; links to the profile itself kept within the page; links
 * to the repository's other documents (`import.md#…`), which the server does not serve, as their text.
 */
const markdown = new Marked({
  renderer: {
    heading({ tokens, depth, text }: Tokens.Heading) {
      return `<h${depth} id="${headingAnchor(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
    link({ href, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const own = /^(?:profile\.md)?(#[^\s"]*)$/.exec(href);
      if (own) return `<a href="${own[1]}">${inner}</a>`;
      if (/^[\w./-]+\.md(?:#|$)/.test(href)) return inner;
      return false;
    },
  },
});

/**
 * The profile as a complete HTML page, for browsers. The Markdown is our own (docs/profile.md), so its
 * rendering is not sanitized.
 */
export function profileHtml(source: string): string {
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>HSDS 3.0 API profile</title>
    <style>${STYLE}</style>
  </head>
  <body>
${markdown.parse(source, { async: false })}
  </body>
</html>
`;
}
