// Browser tier: the explore panels (matrix, charts, advice, device table) and the ranking computed
// in the page's worker (web/src/12-core-worker.mjs) over http and from file://, and by the page
// itself where no worker runs or the worker fails.
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
  // A long table writes its first rows at once and the rest after a paint (aria-busy meanwhile).
  await page.waitForFunction(() => !document.querySelector('llm-calc').shadowRoot.querySelector('table[aria-busy]'));
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
    // The first explore runs on the page; the worker starts once the settings rest (a second, or a
    // 400 ms pause after three seconds).
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

// The worker waits for the settings to rest: a second after the first panels, or after three
// seconds a 400 ms pause, but never the middle of a burst of changes, whose keystrokes would wait
// behind its start (web/src/60-element.mjs startWorkerWhenIdle). The page runs on Playwright's
// fake clock, paused, so the pauses are exact.
test('the worker starts once the settings rest, never in the middle of a burst of changes', async () => {
  const open = async () => {
    const opened = await openPage(suite.browser);
    // Installed paused: the page's time moves only when the test runs it forward.
    await opened.page.clock.install({ time: new Date('2026-01-01T00:00:00Z') });
    await opened.page.clock.pauseAt(new Date('2026-01-01T00:00:01Z'));
    await opened.page.goto(`${suite.base}/index.html`);
    const live = opened.page.locator('llm-calc:not([aria-busy]) [data-testid="kv"]');
    for (let i = 0; i < 500 && !(await live.count()); ++i) await opened.page.clock.runFor(10);
    await live.waitFor();
    return opened;
  };
  const started = (page) => page.evaluate(() => document.querySelector('llm-calc').worker !== undefined);

  // Left alone, the page starts it a second after it went live (the first panels: 10 ms of slack).
  let { context, page, errors } = await open();
  await page.clock.runFor(980);
  assert.equal(await started(page), false);
  await page.clock.runFor(40);
  assert.equal(await started(page), true);
  assert.deepEqual(errors, []);
  await context.close();

  // A burst of slider steps 100 ms apart for five seconds, then 400 ms of rest.
  ({ context, page, errors } = await open());
  await page.locator('llm-calc #f-ctx').focus();
  for (let i = 0; i < 50; ++i) {
    await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
    await page.clock.runFor(100);
    assert.equal(await started(page), false, `started during the burst, ${(i + 1) * 100} ms in`);
  }
  await page.clock.runFor(290);  // 390 ms after the last step
  assert.equal(await started(page), false);
  await page.clock.runFor(20);
  assert.equal(await started(page), true);
  assert.deepEqual(errors, []);
  await context.close();
});

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
  // The page asks for its worker once the settings have rested (web/src/60-element.mjs).
  await page.waitForFunction(() => document.querySelector('llm-calc').worker !== undefined);
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
  await page.waitForFunction(() => document.querySelector('llm-calc').worker?.usable());
  await page.evaluate(() => {
    const worker = window.LlmCalc.coreWorker().worker;  // the page's, started by the element
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

// The ranking's table, as text, once it is drawn whole (a long table writes its first rows first).
async function ranking(page) {
  await page.locator('llm-calc #rank-button').click();
  await page.locator('llm-calc #rank-table:not([aria-busy]) tbody tr').first().waitFor();
  return page.locator('llm-calc #rank-table').textContent();
}

test('the ranking from the worker is the one the page computes itself', async () => {
  const url = `${suite.base}/index.html#v=1&hw=rtx-3090&ctx=32768`;
  const own = await openPage(suite.browser);
  await own.page.addInitScript(() => { delete window.Worker; });
  await own.page.goto(url);
  await waitForCalculator(own.page);
  const expected = await ranking(own.page);
  assert.ok(expected.includes('Llama 3.1 8B'), expected.slice(0, 200));
  assert.deepEqual(own.errors, []);
  await own.context.close();

  const { context, page, errors } = await openCalculator(suite.browser, url);
  await page.waitForFunction(() => document.querySelector('llm-calc').worker?.usable());
  await page.evaluate(() => {
    const client = document.querySelector('llm-calc').worker;
    const call = client.call;
    window.workerCalls = [];
    client.call = (method, ...rest) => {
      window.workerCalls.push(method);
      return call(method, ...rest);
    };
  });
  assert.equal(await ranking(page), expected);
  assert.deepEqual(await page.evaluate(() => window.workerCalls), ['rank']);
  // An answer that arrives after the settings changed is dropped: the ranking is withdrawn instead.
  // (The worker's answer is held back until the context has moved.)
  await page.evaluate(() => {
    const client = document.querySelector('llm-calc').worker;
    const call = client.call;
    client.call = (method, parts, onAnswer, onFailure) => call(method, parts, method !== 'rank' ? onAnswer
      : (...answer) => { window.releaseAnswer = () => onAnswer(...answer); }, onFailure);
  });
  await page.locator('llm-calc #rank-button').click();
  assert.match(await page.locator('llm-calc #rank-button + *').textContent(), /^Ranking every model/);
  await page.waitForFunction(() => window.releaseAnswer);
  await page.locator('llm-calc #f-ctx').focus();
  await page.keyboard.press('ArrowRight');
  await page.locator('llm-calc [data-testid="rank-stale"]').waitFor();
  await page.evaluate(() => window.releaseAnswer());
  assert.equal(await page.locator('llm-calc #rank-table').count(), 0);
  assert.equal(await page.locator('llm-calc [data-testid="rank-stale"]').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

// The worker's first job ranks the catalog to warm its caches, and sends nothing back: the page's
// thread neither receives nor parses an answer no one reads (a hundred KB of JSON). Counted: the
// answers that reach the page before and with the reader's own ranking, which the worker runs
// after the warm-up (one job at a time).
test('the worker\'s warm-up ranking sends no answer to the page', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await page.addInitScript(() => {
    const NativeWorker = window.Worker;
    window.workerAnswers = [];
    window.Worker = class extends NativeWorker {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (event) => {
          if (event.data && event.data.answer !== undefined) window.workerAnswers.push(event.data.lane.replace(/^\d+ /, ''));
        });
      }
    };
  });
  await page.goto(`${suite.base}/index.html`);
  await waitForCalculator(page);
  await page.waitForFunction(() => document.querySelector('llm-calc').worker?.usable());
  await ranking(page);
  assert.deepEqual(await page.evaluate(() => window.workerAnswers), ['rank']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the module is read and compiled once: the worker is made from the page\'s compiled module', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  const reads = [];
  context.on('request', (request) => { if (request.url().endsWith('llmcalc_core.wasm')) reads.push(request.url()); });
  await page.addInitScript(() => {
    window.wasmCompiles = 0;
    for (const name of ['compile', 'compileStreaming', 'instantiateStreaming']) {
      const original = WebAssembly[name];
      WebAssembly[name] = function (...args) { window.wasmCompiles += 1; return original.apply(this, args); };
    }
  });
  await page.goto(`${suite.base}/index.html${STATE}`);
  await waitForCalculator(page);
  await page.waitForFunction(() => document.querySelector('llm-calc').worker?.usable());
  // The worker answers from an instance of the same module: its panels are drawn.
  assert.equal((await stepAndBack(page)).where, 'worker');
  assert.equal(reads.length, 1, reads.join(' '));
  assert.equal(await page.evaluate(() => window.wasmCompiles), 1);
  assert.deepEqual(errors, []);
  await context.close();
});
