// Browser tier, issue #21 item 1: no horizontal overflow at phone, tablet and desktop widths with
// every section open, the device list filled and a deployment planned; wide tables scroll inside
// their own box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCalculator, browserSuite } from './harness.mjs';

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
