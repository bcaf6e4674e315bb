/**
 * `npm run docs:screenshot`: renders the local server's /docs page in headless Chromium and saves it
 * as docs/docs-page.png, the picture in the README. Run it again after adding or changing an endpoint.
 */
import { mkdirSync } from 'node:fs';

// The page needs no upstream and no real key: it is only rendered, never used to call anything.
// A key of SerpApi's form (lib/config.ts refuses another for SerpApi), never sent anywhere.
process.env.SERPAPI_API_KEY ||= '0'.repeat(64);
process.env.API_KEYS ||= 'unused-by-the-screenshot';

const { startLocalServer } = await import('./server.js');
const { docsPages } = await import('./docs.js');
const { launchChromium } = await import('./chromium.js');
const { ROUTES } = await import('../routes.js');

const output = new URL('../../docs/docs-page.png', import.meta.url);
const server = await startLocalServer({ port: 0, pages: await docsPages() });
const browser = await launchChromium();
try {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/docs`);
  await page
    .locator('.opblock-summary-path')
    .nth(ROUTES.length - 1)
    .waitFor();
  mkdirSync(new URL('.', output), { recursive: true });
  await page.screenshot({ path: output.pathname, fullPage: true });
  console.log('Wrote docs/docs-page.png');
} finally {
  await browser.close();
  await server.close();
}
