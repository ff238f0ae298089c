// Browser tier, issue #21: axe-core (a pinned dev dependency) finds no violation on the page with
// every section open, a device group added, a deployment planned and the ranking shown, in light
// and dark, English and Spanish.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openCalculator, browserSuite } from './harness.mjs';

const suite = browserSuite();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

for (const [scheme, lang] of [['light', 'en'], ['dark', 'en'], ['light', 'es'], ['dark', 'es']]) {
  test(`axe-core: no violation, ${scheme}, ${lang}`, async () => {
    const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&lang=${lang}`,
      { colorScheme: scheme });
    await page.locator('llm-calc').evaluate((host) => {
      host.shadowRoot.querySelectorAll('details').forEach((details) => { details.open = true; });
    });
    await page.locator('llm-calc #add-group').click();
    await page.locator('llm-calc [data-testid="device-group"]').waitFor();
    await page.locator('llm-calc #plan-button').click();
    await page.locator('llm-calc #plan-table').waitFor();
    await page.locator('llm-calc #rank-button').click();
    await page.locator('llm-calc #rank-table').waitFor();
    // Runtime evaluation is not subject to the page's Content-Security-Policy.
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
      .violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ')}`));
    assert.deepEqual(violations, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('only the verdict is a live region, not the whole results area', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  const live = await page.locator('llm-calc').evaluate((host) =>
    Array.from(host.shadowRoot.querySelectorAll('[aria-live]')).map((node) => node.getAttribute('data-testid') || node.className));
  assert.ok(live.includes('verdict'), live.join(', '));
  assert.equal(await page.locator('llm-calc section.results[aria-live]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('sorted columns say so, the matrix says fit in words, and Enter in the search picks the match', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090`);
  await page.locator('llm-calc #rank-button').click();
  await page.locator('llm-calc #rank-table').waitFor();
  // The ranking starts sorted by verdict, best first.
  const verdict = page.locator('llm-calc #rank-table th[data-key="verdict"]');
  assert.equal(await verdict.getAttribute('aria-sort'), 'ascending');
  assert.match(await verdict.textContent(), /▲$/);
  await page.locator('llm-calc #rank-table [data-sort="decode"]').click();
  assert.equal(await page.locator('llm-calc #rank-table th[data-key="decode"]').getAttribute('aria-sort'), 'descending');
  assert.equal(await verdict.getAttribute('aria-sort'), null);
  // Q8_0 at the smallest context fits an RTX 4090 comfortably: a tick and the word, not only green.
  const cell = page.locator('llm-calc #matrix-table tbody tr').first().locator('td').first();
  await cell.waitFor();
  assert.match(await cell.textContent(), /^✓ /);
  assert.match(await cell.getAttribute('aria-label'), /Fits comfortably$/);
  // Typing part of a name and Enter selects it.
  await page.locator('llm-calc #f-search').fill('qwen3-8b');
  await page.locator('llm-calc #f-search').press('Enter');
  await page.waitForFunction(() => location.hash.includes('model=qwen3-8b'));
  assert.equal(await page.locator('llm-calc #f-model').inputValue(), 'qwen3-8b');
  assert.deepEqual(errors, []);
  await context.close();
});
