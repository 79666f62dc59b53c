import { describe, expect, it } from 'vitest';
import { profileHtml } from '../../src/openapi/profile-page.ts';

describe('the profile as an HTML page', () => {
  const html = profileHtml(
    '# Profile\n\nSome `code` and a [link](import.md#replace).\n\n| Name | Meaning |\n|---|---|\n| `page` | from 1 |\n',
  );

  it('is a complete HTML5 page in UTF-8 with a title', () => {
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html.trimEnd()).toMatch(/<\/html>$/);
  });

  it('renders the Markdown: headings, code, links as written, and tables', () => {
    expect(html).toContain('<h1>Profile</h1>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<a href="import.md#replace">link</a>');
    expect(html).toMatch(/<table>\s*<thead>\s*<tr>\s*<th>Name<\/th>/);
    expect(html).toContain('<td><code>page</code></td>');
  });

  it('styles its tables', () => {
    expect(html).toMatch(/<style>[^<]*\bth, td \{[^}]*border/);
  });
});
