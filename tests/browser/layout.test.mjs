// Browser tier, issue #21 item 1: no horizontal overflow at phone, tablet and desktop widths with
// every section open, the device list filled and a deployment planned; wide tables scroll inside
// their own box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCalculator, browserSuite, waitForCalculator } from './harness.mjs';

const suite = browserSuite();

for (const width of [360, 390, 768, 1280]) {
  test(`no horizontal overflow at ${width} px with every section open`, async () => {
    const { context, page, errors } = await openCalculator(suite.browser,
      `${suite.base}/index.html#v=1&more=rtx-3060-12gb*1@1,rtx-pro-6000-blackwell*2&hw=custom&cdev=48:960:120&users=4`,
      { viewport: { width, height: 900 } });
    await page.locator('llm-calc').evaluate((host) => {
      host.shadowRoot.querySelectorAll('details').forEach((details) => { details.open = true; });
    });
    await page.locator('llm-calc #plan-button').click();
    await page.locator('llm-calc #plan-table').waitFor();
    await page.locator('llm-calc #rank-button').click();
    await page.locator('llm-calc #rank-table').waitFor();
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    assert.ok(widths.page <= widths.viewport, `page ${widths.page} px wide in a ${widths.viewport} px window`);
    // Whatever is wider than the window sits in a box that scrolls (the tables).
    const loose = await page.locator('llm-calc').evaluate((host) => Array.from(host.shadowRoot.querySelectorAll('*'))
      .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 1 && !node.closest('.table-wrap'))
      .map((node) => node.tagName + (node.id ? '#' + node.id : '')));
    assert.deepEqual(loose, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('as a widget in a 600 px column under hostile CSS the calculator stays in its column', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  const foreign = `<!doctype html><html><head><link rel="icon" href="data:,"><style>
    body { margin: 0 } .column { width: 600px; margin: 0 auto }
    * { font-size: 22px !important; letter-spacing: 2px !important } h2, label { font-size: 40px !important }
    </style></head><body><div class="column"><h1>Docs</h1>
    <llm-calc model="qwen3-30b-a3b" weights="Q4_K_M" ctx="32768" hw="rtx-4090"></llm-calc></div>
    <script src="${suite.base}/llmcalc_core.js"></script><script src="${suite.base}/llm-calc.js"></script></body></html>`;
  await page.route(`${suite.base}/column.html`, (route) => route.fulfill({ contentType: 'text/html', body: foreign }));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${suite.base}/column.html`);
  await waitForCalculator(page);
  await page.locator('llm-calc').evaluate((host) => {
    host.shadowRoot.querySelectorAll('details').forEach((details) => { details.open = true; });
  });
  const box = await page.locator('llm-calc').evaluate((host) => {
    const right = host.getBoundingClientRect().right;
    const loose = Array.from(host.shadowRoot.querySelectorAll('*'))
      .filter((node) => node.getBoundingClientRect().right > right + 1 && !node.closest('.table-wrap'))
      .map((node) => node.tagName + (node.id ? '#' + node.id : ''));
    const label = getComputedStyle(host.shadowRoot.querySelector('label')).fontSize;
    return { width: host.getBoundingClientRect().width, scroll: host.scrollWidth, loose, label };
  });
  assert.equal(box.width, 600);
  assert.deepEqual(box.loose, []);
  assert.notEqual(box.label, '40px');  // the host's font sizes stay out
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone every control is a finger-sized target', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&more=rtx-3090*1`,
    { viewport: { width: 390, height: 900 } });
  await page.locator('llm-calc').evaluate((host) => {
    host.shadowRoot.querySelectorAll('details').forEach((details) => { details.open = true; });
  });
  const small = await page.locator('llm-calc').evaluate((host) => Array.from(
    host.shadowRoot.querySelectorAll('.controls select, .controls input, .controls button, header button, header select, .card > button, .command button'))
    .filter((node) => !node.hidden && node.offsetParent !== null)
    .map((node) => ({ id: node.id || node.className || node.tagName, type: node.type, h: node.getBoundingClientRect().height }))
    .filter((n) => n.h < (n.type === 'checkbox' ? 24 : 44)));
  assert.deepEqual(small, []);
  assert.deepEqual(errors, []);
  await context.close();
});

// The short answer is on the first screen: beside the settings on a wide page, its top level with
// theirs and the results right under it; above the settings in one column (a phone, where it was
// below every setting, 1,487 px down a 844 px screen).
test('the short answer is on the first screen at every width, above the settings in one column', async () => {
  for (const width of [390, 1280]) {
    const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`,
      { viewport: { width, height: 844 } });
    const boxes = await page.locator('llm-calc').evaluate((host) => {
      const rect = (selector) => {
        const box = host.shadowRoot.querySelector(selector).getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, left: box.left, right: box.right };
      };
      return { answer: rect('.summary'), controls: rect('.controls'), results: rect('.results'),
               text: host.shadowRoot.querySelector('.summary').textContent };
    });
    assert.match(boxes.text, /fits comfortably/);
    assert.ok(boxes.answer.bottom <= 844, `the answer ends at ${boxes.answer.bottom} px at ${width} px`);
    if (width === 390) {
      assert.ok(boxes.answer.bottom < boxes.controls.top, 'the answer above the settings');
      assert.ok(boxes.controls.bottom < boxes.results.top, 'the settings above the results');
    } else {
      assert.ok(boxes.answer.left >= boxes.controls.right, 'the answer beside the settings');
      assert.equal(boxes.answer.top, boxes.controls.top);
      assert.equal(boxes.results.top, boxes.answer.bottom + 12);  // the gap between cards
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});
