import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { headingAnchor, profileHtml } from '../../src/openapi/profile-page.ts';

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

  it('renders the Markdown: headings, code, and tables; links to documents it does not serve as their text', () => {
    expect(html).toContain('<h1 id="profile">Profile</h1>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('and a link.');
    expect(html).not.toContain('import.md');
    expect(html).toMatch(/<table>\s*<thead>\s*<tr>\s*<th>Name<\/th>/);
    expect(html).toContain('<td><code>page</code></td>');
  });

  it('styles its tables', () => {
    expect(html).toMatch(/<style>[^<]*\bth, td \{[^}]*border/);
  });

  it('gives every heading of the profile the anchor its own links use, and keeps other links', () => {
    const profile = readFileSync(new URL('../../docs/profile.md', import.meta.url), 'utf8');
    const page = profileHtml(profile);
    const anchors = new Set([...page.matchAll(/<h\d id="([^"]+)"/g)].map((match) => match[1]));
    const linked = [...page.matchAll(/<a href="#([^"]+)"/g)].map((match) => match[1]);
    expect(linked.length).toBeGreaterThan(0);
    for (const anchor of linked) expect(anchors, anchor).toContain(anchor);
    expect(page).not.toMatch(/href="[^"]*\.md/);
    expect(headingAnchor('Change feed (our extension)')).toBe('change-feed-our-extension');
    expect(profileHtml('[spec](https://docs.openreferral.org/)')).toContain(
      '<a href="https://docs.openreferral.org/">spec</a>',
    );
  });
});
