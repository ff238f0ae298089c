// Shared browser-test setup: a static server for dist/ on loopback and Chromium that fails the
// test on any console error, page error or CSP violation.
import { after, before } from 'node:test';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../web/chromium.mjs';
import { createStaticServer } from '../../web/static-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const distDir = process.env.LLMCALC_DIST || resolve(here, '..', '..', 'dist');

export async function startServer(directory = distDir) {
  const server = createStaticServer(directory);
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

export const launch = launchChromium;

// A page whose console errors and page errors are collected in `errors`.
export async function openPage(browser, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`.slice(0, 400)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`.slice(0, 400));
  });
  return { context, page, errors };
}

// One Chromium and one static server for a test file, started before its tests and closed after;
// `browser`, `server` and `base` (the server's URL) are set once the `before` hook has run.
export function browserSuite() {
  const suite = {};
  before(async () => {
    suite.browser = await launch();
    ({ server: suite.server, url: suite.base } = await startServer());
  });
  after(async () => {
    await suite.browser?.close();
    suite.server?.close();
  });
  return suite;
}

// Resolves once the live calculator shows its figures: index.html arrives with the default page
// pre-rendered, whose controls do nothing until the element replaces it and drops aria-busy.
export async function waitForCalculator(page) {
  await page.locator('llm-calc:not([aria-busy]) [data-testid="kv"]').waitFor();
}

// A fresh page at `url`, returned once the calculator has rendered its first figures.
export async function openCalculator(browser, url, options = {}) {
  const opened = await openPage(browser, options);
  await opened.page.goto(url);
  await waitForCalculator(opened.page);
  return opened;
}

// Text of an element inside the calculator's shadow root (Playwright CSS pierces open roots).
export async function figure(page, testId) {
  return (await page.locator(`llm-calc [data-testid="${testId}"] dd`).first().textContent()).trim();
}
