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
  // Tab through the page; a closed section (<details>) is opened with Enter, as a keyboard user would.
  const seen = new Set();
  for (let i = 0; i < 150; ++i) {
    await page.keyboard.press('Tab');
    const active = await page.evaluate(() => {
      const node = document.querySelector('llm-calc').shadowRoot.activeElement;
      if (!node) return null;
      const closed = node.tagName === 'SUMMARY' && !node.parentElement.open;
      return { id: node.id || node.tagName, closed: closed, controls: !!node.closest('.controls') };
    });
    if (!active) continue;
    seen.add(active.id);
    if (active.closed && active.controls) await page.keyboard.press('Enter');
  }
  // Every input and select of the controls that is shown, as the DOM lists them (the Hub file
  // menu appears once a repository with several GGUF models is read; the custom device's group
  // only for a custom device).
  const controls = await page.locator('llm-calc .controls').evaluate((section) =>
    Array.from(section.querySelectorAll('input, select')).filter((node) => !node.closest('[hidden]')).map((node) => node.id));
  assert.ok(!controls.includes('f-cdev_arch'), 'the custom device group is hidden for a catalog device');
  assert.ok(controls.length >= 20, controls.join(', '));
  for (const id of controls.concat(['f-lang'])) assert.ok(seen.has(id), `${id} not reached: ${[...seen].join(', ')}`);
  // The slider moves with arrow keys.
  await page.locator('llm-calc #f-ctx').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => location.hash.includes('ctx=12288'));
  assert.deepEqual(errors, []);
  await context.close();
});

// WCAG 2.2 contrast (SC 1.4.3): relative luminance of sRGB colours, ratio (L1 + 0.05) / (L2 + 0.05);
// at least 4.5 for normal text and 3 for large text (24 px, or 18.66 px bold). Runs in the page on
// every visible text of the element, its background composited from the ancestors' colours.
function lowContrastTexts() {
  const parse = (text) => {
    const numbers = (text.match(/[\d.]+/g) || []).map(Number);
    if (text.startsWith('color(srgb')) return [numbers[0] * 255, numbers[1] * 255, numbers[2] * 255, numbers.length > 3 ? numbers[3] : 1];
    return [numbers[0], numbers[1], numbers[2], numbers.length > 3 ? numbers[3] : 1];
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const luminance = (rgb) => {
    const channel = (c) => { const v = c / 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2]);
  };
  const parentOf = (node) => node.parentElement || (node.parentNode && node.parentNode.host) || null;
  const background = (node) => {
    const layers = [];
    for (let n = node; n; n = parentOf(n)) {
      const colour = parse(getComputedStyle(n).backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] >= 1) break;
    }
    return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  const root = document.querySelector('llm-calc').shadowRoot;
  const failures = [];
  let checked = 0;
  root.querySelectorAll('*').forEach((node) => {
    const ownText = Array.from(node.childNodes).some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!ownText || node.closest('[disabled]') || !node.getClientRects().length) return;
    if (node.closest('details:not([open])') && !node.closest('summary')) return;
    const style = getComputedStyle(node);
    const svg = node instanceof SVGElement;
    const colour = parse(svg ? style.fill : style.color);
    const ratio = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const value = ratio(luminance(over(colour, background(node))), luminance(background(node)));
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    checked += 1;
    if (value < (large ? 3 : 4.5)) failures.push(`${node.tagName}.${node.getAttribute('class') || ''} "${node.textContent.trim().slice(0, 30)}" ${value.toFixed(2)}`);
  });
  return { checked, failures };
}

test('text contrast meets WCAG AA in light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { context, page, errors } = await openPage(suite.browser, { colorScheme });
    await page.goto(`${suite.base}/index.html#v=1&model=qwen3-30b-a3b&hw=rtx-3090&ctx=131072`);
    await page.locator('llm-calc #speed-chart path.decode').waitFor();
    await page.locator('llm-calc #devices-card summary').click();
    await page.locator('llm-calc #device-table tbody tr').first().waitFor();
    const { checked, failures } = await page.evaluate(lowContrastTexts);
    assert.ok(checked > 200, `${colorScheme}: only ${checked} texts checked`);
    assert.deepEqual(failures, [], colorScheme);
    assert.deepEqual(errors, []);
    await context.close();
  }
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
