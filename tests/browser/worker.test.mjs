// Browser tier: the explore panels (matrix, charts, advice, device table) computed in the page's
// worker (web/src/12-explore-worker.mjs) over http and from file://, and by the page itself where
// no worker runs or the worker fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserSuite, distDir, openCalculator, openPage, waitForCalculator } from './harness.mjs';

const suite = browserSuite();
// Llama 3.1 70B at Q8_0 in vLLM (no offload) does not fit one RTX 4090: every panel has something
// to show, the advice included.
const STATE = '#v=1&model=llama-3.1-70b&weights=Q8_0&engine=vllm&hw=rtx-4090&ctx=16384';

// Every panel the explore answers draw, as markup, once the host says they show the current state.
async function panels(page) {
  await page.locator('llm-calc[data-explored]').waitFor();
  return page.locator('llm-calc').evaluate((host) => {
    const root = host.shadowRoot;
    return {
      where: host.getAttribute('data-explored'),
      html: ['#matrix-table', '#memory-chart', '#speed-chart', '#recommendations', '#advice', '#device-table']
        .map((selector) => (root.querySelector(selector) || { outerHTML: '' }).outerHTML),
    };
  });
}

// One step up the context slider and back: the same state, its panels explored again.
async function stepAndBack(page) {
  await page.locator('llm-calc #f-ctx').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  return panels(page);
}

for (const [where, url] of [['over http', () => `${suite.base}/index.html${STATE}`],
                            ['from file://', () => pathToFileURL(join(distDir, 'llm-calculator.html')).href + STATE]]) {
  test(`${where} the worker draws the same panels as the page`, async () => {
    const { context, page, errors } = await openCalculator(suite.browser, url());
    await page.locator('llm-calc #devices-card summary').click();  // the device table is drawn when open
    await page.locator('llm-calc #device-table tbody tr').first().waitFor();
    // The first explore runs on the page; it starts the worker.
    const own = await panels(page);
    assert.equal(own.where, 'page');
    assert.ok(own.html[0].includes('<td'), 'the matrix has cells');
    assert.ok(own.html[4].includes('<button'), 'the advice offers what would run');
    assert.ok(own.html[5].includes('<td'), 'the device table has rows');
    // Later ones run in the worker once it is ready (it compiles the module first).
    let again = await stepAndBack(page);
    for (let i = 0; again.where !== 'worker' && i < 40; ++i) {
      await page.waitForTimeout(100);
      again = await stepAndBack(page);
    }
    assert.equal(again.where, 'worker');
    assert.deepEqual(again.html, own.html);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('without a worker, or when it fails, the page computes the panels itself', async () => {
  // No Worker at all.
  let { context, page, errors } = await openPage(suite.browser);
  await page.addInitScript(() => { delete window.Worker; });
  await page.goto(`${suite.base}/index.html${STATE}`);
  await waitForCalculator(page);
  const own = await panels(page);
  await page.waitForTimeout(300);
  const again = await stepAndBack(page);
  assert.equal(again.where, 'page');
  assert.deepEqual(again.html, own.html);
  assert.deepEqual(errors, []);
  await context.close();

  // A host page whose policy refuses workers made from blobs (the widget in someone's docs).
  ({ context, page, errors } = await openPage(suite.browser));
  const host = `<!doctype html><html><head><link rel="icon" href="data:,"><meta http-equiv="Content-Security-Policy"
    content="default-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; worker-src 'none'"></head><body>
    <llm-calc model="llama-3.1-70b" weights="Q8_0" engine="vllm" hw="rtx-4090" ctx="16384"></llm-calc>
    <script src="llmcalc_core.js"></script><script src="llm-calc.js"></script></body></html>`;
  await page.route(`${suite.base}/strict.html`, (route) => route.fulfill({ contentType: 'text/html', body: host }));
  await page.goto(`${suite.base}/strict.html`);
  await waitForCalculator(page);
  await panels(page);
  await page.waitForTimeout(300);
  const refused = await stepAndBack(page);
  assert.equal(refused.where, 'page');
  assert.deepEqual(refused.html.slice(0, 5), own.html.slice(0, 5));
  assert.ok(errors.length > 0 && errors.every((error) => /worker/i.test(error) && /Content Security Policy/.test(error)),
            errors.join('\n'));
  await context.close();

  // A worker that fails with a job in hand (as a trap in the module would): the job comes back to
  // the page, and later ones stay there.
  ({ context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html${STATE}`));
  await panels(page);
  await page.waitForFunction(() => window.LlmCalc.exploreWorker().ready);
  await page.evaluate(() => {
    const worker = window.LlmCalc.exploreWorker().worker;
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message) => {
      post(message);
      if (message.parts) worker.dispatchEvent(new ErrorEvent('error', { message: 'a test failure' }));
    };
  });
  for (const expected of ['page', 'page']) {
    const after = await stepAndBack(page);
    assert.equal(after.where, expected);
    assert.deepEqual(after.html.slice(0, 5), own.html.slice(0, 5));
  }
  assert.deepEqual(errors, []);
  await context.close();
});
