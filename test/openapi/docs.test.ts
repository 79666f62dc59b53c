import { readFileSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileHtml } from '../../src/openapi/profile-page.ts';
import { defaultDocument } from './default-document.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, { redirect: 'manual', headers });

/** What a browser sends when following a link. */
const BROWSER = {
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
};

/** A GET with no Accept header at all, which fetch would add. */
function getWithoutAccept(path: string): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    httpGet(`${app.url}${path}`, (response) => {
      response.resume();
      resolve({ status: response.statusCode!, headers: response.headers });
    }).on('error', reject);
  });
}

describe('GET /openapi.json', () => {
  it('serves the generated document for the base URL the client used', async () => {
    const response = await get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(defaultDocument(app.url));
  });
});

describe.each([
  ['/openapi.json', 'any client', {}, /^application\/json/],
  ['/profile', 'any client', {}, /^text\/markdown; charset=utf-8$/],
  ['/profile', 'a browser', BROWSER, /^text\/html; charset=utf-8$/],
])('GET %s for %s', (path, _client, headers, type) => {
  it('carries a strong ETag of its bytes and Cache-Control, and answers If-None-Match with 304', async () => {
    const response = await get(path, headers);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(type);
    const tag = response.headers.get('etag');
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const body = await response.text();
    expect(body.startsWith('"')).toBe(false); // the document or the page, not a JSON string of it
    const again = await get(path, { ...headers, 'If-None-Match': tag! });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
  });
});

describe('GET /profile', () => {
  const markdown = readFileSync(new URL('../../docs/profile.md', import.meta.url), 'utf8');

  it('serves a browser the profile rendered as an HTML page, under a Content-Security-Policy', async () => {
    const response = await get('/profile', BROWSER);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toBe(profileHtml(markdown));
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<h1 id="[^"]+">[^<]+<\/h1>/);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });

  it('serves Markdown, as before, to a client that asks for */* or says nothing', async () => {
    const any = await get('/profile', { Accept: '*/*' });
    expect(any.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await any.text()).toBe(markdown);
    const silent = await getWithoutAccept('/profile');
    expect(silent.status).toBe(200);
    expect(silent.headers['content-type']).toBe('text/markdown; charset=utf-8');
  });

  it('tags the two forms apart, and says that the form depends on Accept', async () => {
    const html = await get('/profile', BROWSER);
    const text = await get('/profile');
    expect(html.headers.get('etag')).not.toBe(text.headers.get('etag'));
    for (const response of [html, text]) {
      expect(response.headers.get('vary')).toMatch(/\bAccept\b(?!-)/);
      await response.arrayBuffer();
    }
    const notModified = await get('/profile', { ...BROWSER, 'If-None-Match': text.headers.get('etag')! });
    expect(notModified.status).toBe(200);
    await notModified.arrayBuffer();
  });
});

describe('GET /docs', () => {
  it('serves the reference page under a Content-Security-Policy, with no inline script', async () => {
    const response = await get('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="docs\//);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('serves every file the page links, with its content type', async () => {
    const html = await (await get('/docs')).text();
    const links = [...html.matchAll(/(?:src|href)="(docs\/[^"]+)"/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThanOrEqual(4);
    const types: Record<string, RegExp> = { js: /^text\/javascript/, css: /^text\/css/, png: /^image\/png$/ };
    for (const link of links) {
      const response = await get(`/${link}`);
      expect(response.status, link).toBe(200);
      const extension = new URL(link, 'http://x/').pathname.split('.').pop()!;
      expect(response.headers.get('content-type'), link).toMatch(types[extension]!);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      await response.arrayBuffer();
    }
  });

  it('caches the versioned swagger-ui assets for a year, its own script not', async () => {
    const html = await (await get('/docs')).text();
    const bundle = /src="(docs\/swagger-ui-bundle\.js\?v=[^"]+)"/.exec(html)![1]!;
    const asset = await get(`/${bundle}`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await asset.arrayBuffer();
    const own = /src="(docs\/reference\.js)"/.exec(html)![1]!;
    const script = await get(`/${own}`);
    expect(script.headers.get('cache-control')).toBe('no-cache');
    expect(await script.text()).toContain("new URL('openapi.json'");
  });

  it('serves only the files the page needs', async () => {
    for (const path of ['/docs/package.json', '/docs/swagger-ui-bundle.js.map', '/docs/..%2Fpackage.json']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  it('redirects /docs/ to /docs, where the relative links resolve', async () => {
    const response = await get('/docs/');
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location')!, `${app.url}/docs/`).href).toBe(`${app.url}/docs`);
  });
});
