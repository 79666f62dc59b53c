import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
// CI installs Chromium (.ci/run), so there a missing browser is a failure, not a reason to skip.
const skip = !hasChromium && !process.env.CI;
const skipReason = `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
if (skip) console.warn(`Skipping the API reference browser test: ${skipReason}`);

const isLocal = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

let app: TestApp;
let browser: Browser;

describe.skipIf(skip)(`the API reference in a browser${skip ? ` (skipped: ${skipReason})` : ''}`, () => {
  beforeAll(async () => {
    if (!hasChromium) throw new Error(`CI needs Chromium at ${CHROMIUM}: apt-get install chromium`);
    app = await startTestApp();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders every endpoint from /openapi.json, offline, and calls the API', async () => {
    const context = await browser.newContext();
    const leftTheMachine: string[] = [];
    await context.route('**/*', (route) => {
      if (isLocal(new URL(route.request().url()))) return route.continue();
      leftTheMachine.push(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });

    await page.goto(`${app.url}/docs`);
    const paths = page.locator('.opblock-summary-path[data-path]');
    await paths.first().waitFor({ timeout: 20_000 });
    const listed = await paths.evaluateAll((elements) =>
      elements.map((element) => element.getAttribute('data-path')),
    );
    expect(listed).toEqual(
      expect.arrayContaining([
        '/services',
        '/services/{id}',
        '/organizations/{id}',
        '/service_at_locations',
        '/taxonomy_terms',
        '/healthz',
        '/management/users/{user_id}/',
        '/meta/',
        '/import',
      ]),
    );
    expect(await page.locator('.info .title').textContent()).toContain('HSDS 3.0 API');

    // Try it out: the page may call the API it describes (connect-src 'self').
    const operation = page.locator('#operations-services-getPaginatedListOfServices');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    await expect
      .poll(
        () =>
          operation.locator('.live-responses-table tr.response .response-col_status').first().textContent(),
        {
          timeout: 10_000,
        },
      )
      .toContain('200');

    expect(leftTheMachine).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
