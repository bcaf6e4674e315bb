import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_HINT, type Chromium, findChromium, launchChromium, underCi } from '../../lib/local/chromium.js';
import { ROUTES } from '../../lib/routes.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type Service, startService } from '../support/service.js';

let upstream: FakeSerpApi;
let service: Service;

// A fresh clone on a machine without a browser still passes: the rendering test is skipped, saying how to
// enable it. Under CI a browser is required (.ci/run installs one), so there a missing one fails the test.
const browserPath = findChromium();
const renderInBrowser = browserPath !== undefined || underCi();

beforeAll(async () => {
  upstream = await startFakeSerpApi();
  service = await startService(
    { SERPAPI_BASE_URL: upstream.url },
    { pages: async () => (await import('../../lib/local/docs.js')).docsPages() },
  );
});
afterAll(async () => {
  await service?.close();
  await upstream?.close();
});

const withoutKey = { headers: { Authorization: '' }, method: 'GET' };

describe('GET /', () => {
  it('points to /docs and /openapi.json, in the envelope, without a key', async () => {
    const reply = await service.post('/', undefined, withoutKey);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.headers.get('x-request-id')).toBeTruthy();
    expect(reply.json).toEqual({
      success: true,
      message: 'Search and Citation API: the reference is at /docs, the OpenAPI document at /openapi.json',
      data: { docs: '/docs', openapi: '/openapi.json', endpoints: expect.stringContaining('POST under /v1') },
    });
    // The paths it names are served.
    expect((await service.post(reply.json.data.docs, undefined, withoutKey)).status).toBe(200);
    expect((await service.post(reply.json.data.openapi, undefined, withoutKey)).status).toBe(200);
  });

  it('is no endpoint for a POST: 404 NOT_FOUND as before', async () => {
    const reply = await service.post('/', {});
    expect(reply.status).toBe(404);
    expect(reply.json.error.code).toBe('NOT_FOUND');
  });
});

describe('GET /openapi.json', () => {
  it('serves the OpenAPI 3.1 document of every route, without a key', async () => {
    const reply = await service.post('/openapi.json', undefined, withoutKey);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.json.openapi).toBe('3.1.0');
    expect(Object.keys(reply.json.paths).sort()).toEqual(ROUTES.map((route) => route.path).sort());
  });
});

describe('GET /docs', () => {
  it('serves the page and Swagger UI’s files from this server', async () => {
    const page = await service.post('/docs', undefined, withoutKey);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset.startsWith('/docs/'), `${asset} is served locally`).toBe(true);
      expect((await service.post(asset, undefined, withoutKey)).status, asset).toBe(200);
    }
  });
});

describe('GET /docs in a browser', () => {
  let browser: Chromium | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it('renders every path of the route table in headless Chromium, with no request leaving this server', async (context) => {
    // Printed at the end of the run (test/support/reporters.ts); under CI a missing browser fails instead.
    context.skip(!renderInBrowser, `no Chromium found; ${CHROMIUM_HINT}`);
    // Launched here, so that under CI a missing browser fails this test by name.
    browser = await launchChromium(browserPath);
    const page = await browser.context.newPage();
    const elsewhere: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === service.url) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    await page.goto(`${service.url}/docs`);
    await page
      .locator('.opblock-summary-path')
      .nth(ROUTES.length - 1)
      .waitFor();

    // Swagger UI puts zero-width spaces into paths so that they can wrap.
    const shown = (await page.locator('.opblock-summary-path').allInnerTexts()).map((text) => text.replace(/\u200b/g, '').trim());
    expect(shown.sort()).toEqual(ROUTES.map((route) => route.path).sort());
    const methods = await page.locator('.opblock-summary-method').allInnerTexts();
    expect(new Set(methods)).toEqual(new Set(['POST']));
    expect(await page.locator('.info .title').textContent()).toContain('Search and Citation API');
    expect(await page.locator('.errors-wrapper').count(), 'Swagger UI reports no errors in the document').toBe(0);
    expect(pageErrors).toEqual([]);
    expect(elsewhere).toEqual([]);
    await page.close();
  });
});
