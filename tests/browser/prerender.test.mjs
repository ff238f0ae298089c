// Issue #22: index.html and llm-calculator.html arrive with the default page pre-rendered
// (web/prerender.mjs). What they show before any script runs must be what the live page computes,
// and a page that opens another state (a share link, another language) must never show it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserSuite, distDir, figure, openPage, waitForCalculator } from './harness.mjs';

const suite = browserSuite();

// Everything a reader sees: the text of the shadow root's visible elements, the values of its
// controls outside closed sections (a menu's with the label it shows), and which sections are
// open. A menu's text is every option's, shown or not, and the pre-render keeps only the chosen
// one (web/prerender.mjs): menus are taken out of the text while it is read. `closedContents`
// counts what closed sections hold besides their summary.
function snapshot() {
  const root = document.querySelector('llm-calc').shadowRoot;
  const visible = Array.from(root.children).filter((node) => node.tagName !== 'STYLE');
  // The pre-render's stand-ins for text and number boxes (web/prerender.mjs) show their value as
  // text, which an input's innerText does not: they are read as the controls they stand for.
  const menus = Array.from(root.querySelectorAll('select, .prerendered-input'));
  menus.forEach((menu) => menu.style.setProperty('display', 'none', 'important'));
  // The pre-render's cards off screen are drawn once scrolled near (content-visibility), and
  // innerText leaves out what is not drawn: every card is drawn while the text is read.
  const cards = Array.from(root.querySelectorAll('.card'));
  cards.forEach((card) => card.style.setProperty('content-visibility', 'visible', 'important'));
  const text = visible.map((node) => node.innerText).join('\n');
  menus.forEach((menu) => menu.style.removeProperty('display'));
  cards.forEach((card) => card.style.removeProperty('content-visibility'));
  const standIn = (c) => c.classList.contains('prerendered-input');
  const value = (c) => standIn(c) ? (c.classList.contains('placeholder') ? '' : c.textContent)
    : c.type === 'checkbox' ? c.checked
      : c.tagName === 'SELECT' ? `${c.value} (${c.selectedOptions[0] ? c.selectedOptions[0].text : ''})` : c.value;
  return {
    text,
    controls: Array.from(root.querySelectorAll('input, select, .prerendered-input'))
      .filter((c) => c.type !== 'file' && !c.closest('details:not([open])'))
      .map((c) => `${c.id || c.getAttribute('data-for') || c.getAttribute('data-key') || c.type}=${value(c)}`),
    open: Array.from(root.querySelectorAll('details')).map((d) => d.open),
    closedContents: Array.from(root.querySelectorAll('details:not([open]) > :not(summary)')).length,
  };
}

async function prerendered(url) {
  const { context, page, errors } = await openPage(suite.browser, { javaScriptEnabled: false, locale: 'en-US' });
  await page.goto(url);
  const seen = await page.evaluate(snapshot);
  assert.equal(await page.locator('llm-calc').getAttribute('aria-busy'), 'true');
  assert.deepEqual(errors, []);
  await context.close();
  return seen;
}

async function computed(url) {
  const { context, page, errors } = await openPage(suite.browser, { locale: 'en-US' });
  await page.goto(url);
  await waitForCalculator(page);
  await page.locator('llm-calc[data-explored]').waitFor();
  const seen = await page.evaluate(snapshot);
  assert.deepEqual(errors, []);
  await context.close();
  return seen;
}

for (const [where, url] of [['over http', () => `${suite.base}/index.html`],
                            ['from file://', () => pathToFileURL(join(distDir, 'llm-calculator.html')).href]]) {
  test(`${where}: the pre-rendered default page shows exactly what the live page computes`, async () => {
    const before = await prerendered(url());
    // Llama 3.1 8B's KV cache at 8,192 tokens: 32 layers x 8 KV heads x 256 x 2 bytes x 8192 = 1 GiB.
    assert.match(before.text, /1\.00 GiB · 1\.07 GB/);
    const after = await computed(url());
    // The live page's closed sections hold their settings; the pre-render's only their summary.
    assert.ok(after.closedContents > 0);
    assert.equal(before.closedContents, 0);
    assert.deepEqual(before.controls, after.controls);
    assert.deepEqual(before.open, after.open);
    assert.equal(before.text, after.text);
  });
}

// The module is held back so the moment before it is ready can be looked at.
async function withModuleHeld(options, url, check) {
  const { context, page, errors } = await openPage(suite.browser, options);
  let release;
  const held = new Promise((done) => { release = done; });
  await page.route('**/llmcalc_core.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(url);
  await page.waitForFunction(() => document.readyState === 'complete' || document.querySelector('llm-calc').shadowRoot.querySelector('.loading'));
  await check(page, release);
  assert.deepEqual(errors, []);
  await context.close();
}

// The element's script is held back: what the page paints from its HTML and head script alone.
async function beforeScript(options, url) {
  const { context, page, errors } = await openPage(suite.browser, options);
  let release;
  const held = new Promise((done) => { release = done; });
  await page.route('**/llm-calc-page.js', async (route) => { await held; await route.continue(); });
  await page.goto(url, { waitUntil: 'commit' });  // the held script holds DOMContentLoaded back
  await page.locator('llm-calc [data-testid="kv"]').waitFor({ state: 'attached' });
  const shown = await page.locator('llm-calc [data-testid="kv"]').isVisible();
  release();
  await waitForCalculator(page);
  assert.deepEqual(errors, []);
  await context.close();
  return shown;
}

// Where each result card starts, undrawn cards included, 1,280 px wide (720 high), and whether it
// waits to be scrolled near before it is laid out (content-visibility: auto).
async function cardTops(url, javaScriptEnabled) {
  const { context, page, errors } = await openPage(suite.browser, { javaScriptEnabled, locale: 'en-US' });
  await page.goto(url);
  if (javaScriptEnabled) await page.locator('llm-calc[data-explored]').waitFor();
  const cards = await page.evaluate(() => Array.from(document.querySelector('llm-calc').shadowRoot
    .querySelectorAll('.results > .card')).map((card) => ({
    top: Math.round(card.getBoundingClientRect().top), deferred: getComputedStyle(card).contentVisibility === 'auto' })));
  assert.deepEqual(errors, []);
  await context.close();
  return cards;
}

test('the pre-render\'s cards off screen, not drawn yet, hold the heights the live page gives them', async () => {
  const prerendered = await cardTops(`${suite.base}/index.html`, false);
  // Of the 15 cards about 4 are on the first screen; the rest stand in at the height they were measured at.
  assert.ok(prerendered.length > 10);
  assert.ok(prerendered[prerendered.length - 1].top > 2000);
  assert.deepEqual(prerendered.map((card) => card.top), (await cardTops(`${suite.base}/index.html`, true)).map((card) => card.top));
  // Chromium lays out a card within 1.5 screens below the first (720 + 1,080 px) for the first frame
  // anyway, so only the cards beyond wait; the nearer ones would cost a second layout pass.
  for (const card of prerendered) assert.equal(card.deferred, card.top >= 1800, `card at ${card.top} px`);
  assert.ok(prerendered.some((card) => card.deferred));
});

// Each text or number box and each menu of the page, where it is drawn and what it shows: on the
// pre-render a box's stand-in (web/prerender.mjs) and a menu holding its chosen option only, on the
// live page the controls themselves.
async function textBoxes(url, javaScriptEnabled, width) {
  const { context, page, errors } = await openPage(suite.browser, { javaScriptEnabled, locale: 'en-US', viewport: { width, height: 720 } });
  await page.goto(url);
  if (javaScriptEnabled) await page.locator('llm-calc[data-explored]').waitFor();
  const boxes = await page.evaluate(() => Array.from(document.querySelector('llm-calc').shadowRoot
    .querySelectorAll('input[type=text], input[type=search], input[type=number], .prerendered-input, select'))
    .filter((box) => box.getClientRects().length && !box.closest('details:not([open])'))
    .map((box) => {
      const r = box.getBoundingClientRect();
      const id = box.id || box.getAttribute('data-for');
      const shown = box.tagName === 'INPUT' ? box.value || box.placeholder
        : box.tagName === 'SELECT' ? box.selectedOptions[0]?.text : box.textContent;
      return `${id} ${shown} at ${r.left.toFixed(1)},${r.top.toFixed(1)} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`;
    }));
  assert.deepEqual(errors, []);
  await context.close();
  return boxes;
}

test('the pre-render draws each text and number box and each menu where the live page puts it, with its text', async () => {
  for (const width of [1280, 390]) {
    const prerendered = await textBoxes(`${suite.base}/index.html`, false, width);
    // The search box, the Hugging Face box, the context, prompt, batch and device count, the
    // deployment card's users and speed.
    assert.ok(prerendered.length >= 8, prerendered.join('\n'));
    assert.deepEqual(prerendered, await textBoxes(`${suite.base}/index.html`, true, width), `${width} px wide`);
  }
});

test('before the page script runs, only the default page shows the pre-rendered figures', async () => {
  assert.equal(await beforeScript({ locale: 'en-US' }, `${suite.base}/index.html`), true);
  assert.equal(await beforeScript({ locale: 'en-US' }, `${suite.base}/index.html#v=1`), true);
  assert.equal(await beforeScript({ locale: 'en-US' }, `${suite.base}/index.html#v=1&model=qwen3-8b&ctx=32768`), false);
  assert.equal(await beforeScript({ locale: 'es-ES' }, `${suite.base}/index.html`), false);
});

test('a share link shows "Loading…", never the default figures, until its own are computed', async () => {
  await withModuleHeld({ locale: 'en-US' }, `${suite.base}/index.html#v=1&model=qwen3-8b&ctx=32768`, async (page, release) => {
    assert.equal(await page.locator('llm-calc .loading').count(), 1);
    assert.equal(await page.locator('llm-calc [data-testid="kv"]').count(), 0);
    release();
    await waitForCalculator(page);
    // Qwen3-8B: 36 layers x 8 KV heads x 256 x 2 bytes = 147,456 bytes per token; x 32,768 = 4.5 GiB.
    assert.equal(await figure(page, 'kv'), '4.50 GiB · 4.83 GB');
  });
});

test('a Spanish browser is not shown the English pre-rendered page', async () => {
  await withModuleHeld({ locale: 'es-ES' }, `${suite.base}/index.html`, async (page, release) => {
    assert.equal(await page.locator('llm-calc [data-testid="kv"]').count(), 0);
    release();
    await waitForCalculator(page);
    assert.equal(await page.locator('html').getAttribute('lang'), 'es');
  });
});

test('the default page keeps its pre-rendered figures on screen until the live page replaces them', async () => {
  await withModuleHeld({ locale: 'en-US' }, `${suite.base}/index.html`, async (page, release) => {
    assert.equal(await page.locator('llm-calc .loading').count(), 0);
    assert.equal(await figure(page, 'kv'), '1.00 GiB · 1.07 GB');
    release();
    await waitForCalculator(page);
    assert.equal(await page.locator('llm-calc style[data-prerendered-state]').count(), 0);
  });
});

// The pages with a pre-render run dist/llm-calc-page.js, which has no copy of the element's
// stylesheet: the live element adopts the one the pre-render carries, also where it clears the
// pre-render at once (a share link) or where the browser leaves the declarative shadow root a plain
// template (Firefox before 123). Unstyled, the page's grid (.layout) would be a block.
test('the live page is styled by the stylesheet its pre-render carries, in every way a page can open', async () => {
  const styledLayout = async (url, withoutDeclarativeShadowRoot = false) => {
    const { context, page, errors } = await openPage(suite.browser, { locale: 'en-US' });
    if (withoutDeclarativeShadowRoot) {
      await page.route('**/index.html', async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace('<template shadowrootmode="open">', '<template>');
        await route.fulfill({ response, body });
      });
    }
    await page.goto(url);
    await waitForCalculator(page);
    const seen = await page.evaluate(() => {
      const root = document.querySelector('llm-calc').shadowRoot;
      return { display: getComputedStyle(root.querySelector('.layout')).display, styleElements: root.querySelectorAll('style').length };
    });
    assert.deepEqual(errors, []);
    await context.close();
    return seen;
  };
  const live = { display: 'grid', styleElements: 0 };
  assert.deepEqual(await styledLayout(`${suite.base}/index.html`), live);
  assert.deepEqual(await styledLayout(`${suite.base}/index.html#v=1&model=qwen3-8b`), live);
  assert.deepEqual(await styledLayout(pathToFileURL(join(distDir, 'llm-calculator.html')).href), live);
  assert.deepEqual(await styledLayout(`${suite.base}/index.html`, true), live);
});

// The scripts of index.html are asked for only once its pre-rendered answer has been painted
// (web/start-after-paint.mjs): with deferred scripts, Chromium requested them while parsing and
// ran them before the first frame. A share link, which paints nothing of the pre-render, asks at once.
test('index.html paints its pre-rendered answer before it asks for its scripts; a share link asks at once', async () => {
  const timings = async (url) => {
    const { context, page, errors } = await openPage(suite.browser, { locale: 'en-US' });
    await page.goto(url);
    await waitForCalculator(page);
    const seen = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      scripts: ['llm-calc-page.js', 'llmcalc_core.js'].map((name) =>
        performance.getEntriesByType('resource').find((entry) => entry.name.endsWith(`/${name}`)).startTime),
    }));
    assert.deepEqual(errors, []);
    await context.close();
    return seen;
  };
  const start = await timings(`${suite.base}/index.html`);
  assert.ok(start.paint > 0, 'the default page paints');
  for (const requested of start.scripts) assert.ok(requested >= start.paint, `${requested} ms >= ${start.paint} ms`);
  const link = await timings(`${suite.base}/index.html#v=1&model=qwen3-8b`);
  for (const requested of link.scripts) {
    assert.ok(link.paint === undefined || requested < link.paint, `${requested} ms < ${link.paint} ms`);
  }
});
