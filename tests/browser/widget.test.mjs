// Browser tier: the widget in a foreign page with hostile CSS, keyboard-only use, Spanish, and
// desktop / phone screenshots (saved under test-results/).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage, openCalculator, browserSuite } from './harness.mjs';

const results = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results');
const suite = browserSuite();
before(() => {
  mkdirSync(results, { recursive: true });
});

test('the widget keeps its styles inside a page with hostile CSS', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  // A documentation page of someone else's, with aggressive global CSS and no CSP of ours.
  const foreign = `<!doctype html><html><head><link rel="icon" href="data:,"><style>
    * { color: rgb(255, 0, 0) !important; font-size: 40px !important; font-family: fantasy !important;
        letter-spacing: 9px !important } h2 { display: none !important } dd { visibility: hidden !important }
    </style></head><body><h1>Docs</h1>
    <llm-calc model="qwen3-30b-a3b" weights="Q4_K_M" ctx="32768" hw="rtx-4090"></llm-calc>
    <script src="${suite.base}/llmcalc_core.js"></script><script src="${suite.base}/llm-calc.js"></script></body></html>`;
  await page.route(`${suite.base}/foreign.html`, (route) => route.fulfill({ contentType: 'text/html', body: foreign }));
  await page.goto(`${suite.base}/foreign.html`);
  await page.locator('llm-calc [data-testid="kv"]').waitFor();
  const style = await page.evaluate(() => {
    const root = document.querySelector('llm-calc').shadowRoot;
    const heading = getComputedStyle(root.querySelector('h2'));
    const value = getComputedStyle(root.querySelector('[data-testid="kv"] dd'));
    return { display: heading.display, color: value.color, size: value.fontSize, spacing: value.letterSpacing };
  });
  assert.equal(style.display, 'block');
  assert.notEqual(style.color, 'rgb(255, 0, 0)');
  assert.notEqual(style.size, '40px');
  assert.notEqual(style.spacing, '9px');
  // The widget's attributes chose the model.
  assert.equal(await page.locator('llm-calc #f-model').inputValue(), 'qwen3-30b-a3b');
  assert.deepEqual(errors, []);
  await context.close();
});

test('every control is reachable with the keyboard alone', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  const seen = new Set();
  for (let i = 0; i < 40; ++i) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const active = document.querySelector('llm-calc').shadowRoot.activeElement;
      return active ? active.id || active.tagName : null;
    });
    if (id) seen.add(id);
  }
  for (const id of ['f-lang', 'f-search', 'f-model', 'f-file', 'f-weights', 'f-kv', 'f-ctx', 'f-prompt',
                    'f-batch', 'f-engine', 'f-hw', 'f-n']) {
    assert.ok(seen.has(id), `${id} not reached: ${[...seen].join(', ')}`);
  }
  // The slider moves with arrow keys.
  await page.locator('llm-calc #f-ctx').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => location.hash.includes('ctx=12288'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('Spanish renders with Spanish number formats; screenshots for desktop and phone', async () => {
  for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
    const { context, page, errors } = await openPage(suite.browser, { viewport, locale: 'es-ES' });
    await page.goto(`${suite.base}/index.html#v=1&model=qwen3-30b-a3b&ctx=32768`);
    await page.locator('llm-calc [data-testid="kv"]').waitFor();
    assert.equal(await page.locator('llm-calc h1').textContent(), 'Calculadora de inferencia de LLM');
    // 30,532,122,624 parameters written the Spanish way.
    assert.match(await page.locator('llm-calc [data-testid="params-total"] dd').textContent(), /^30\.532\.122\.624/);
    assert.match(await page.locator('llm-calc [data-testid="answers"]').textContent(), /tokens de contexto/);
    await page.screenshot({ path: join(results, `calculator-${name}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
