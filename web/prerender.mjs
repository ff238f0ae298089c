// The default page, computed when dist/ is built, so index.html and llm-calculator.html paint their
// first answer with the HTML (issue #22). dist/index.html is opened in headless Chromium (the same
// module and page scripts the user gets), and once the figures, the matrix and the charts are drawn
// the element's shadow root is written out as a declarative shadow root. The live element keeps it
// on screen until its own page replaces it in one task (web/src/60-element.mjs).
import { launchChromium } from './chromium.mjs';
import { createStaticServer } from './static-server.mjs';

// Runs in the page: what the markup must carry that the DOM holds only as properties (form values,
// inline styles, which a style-src without 'unsafe-inline' would refuse as attributes).
function serializeCalculator() {
  const host = document.querySelector('llm-calc');
  const root = host.shadowRoot;
  // A closed section shows its summary only, so its contents stay out of the HTML: 30 of the
  // page's 40 inputs and 4 of its 11 menus, 10 KB of markup. Chromium's form scan at
  // DOMContentLoaded and the first layout went through each of them before the first frame
  // (25-30 ms of forced style and layout in a trace); a section opened before the live element
  // replaces the pre-render shows nothing for that moment.
  root.querySelectorAll('details:not([open])').forEach((details) => {
    Array.from(details.childNodes).forEach((node) => { if (node.nodeName !== 'SUMMARY') node.remove(); });
  });
  // Result cards off screen are neither laid out nor painted until scrolled near
  // (content-visibility), each holding the height it has here (1,280 px wide) so the page keeps
  // its length. In the pre-render only: on the live page a card taking its real height as it came
  // near moved the page under the pointer (README, the twentieth session); here nothing acts yet.
  // Only cards that start beyond the first screen and Chromium's margin of 1.5 screens below it
  // (kViewportMarginPercentage = 150, third_party/blink/renderer/core/display_lock/
  // display_lock_document_state.h): a nearer card is laid out for the first frame all the same, in
  // a second style and layout pass once the first has found it near, which cost 20-30 ms of the
  // first frame at 1x in traces (issue #22).
  const near = window.innerHeight * 2.5;
  const cards = Array.from(root.querySelectorAll('.results > .card'))
    .filter((card) => card.getBoundingClientRect().top + window.scrollY >= near);
  const heights = cards.map((card) => {
    const box = getComputedStyle(card);
    return card.getBoundingClientRect().height - ['paddingTop', 'paddingBottom', 'borderTopWidth',
      'borderBottomWidth'].reduce((sum, side) => sum + parseFloat(box[side]), 0);
  });
  cards.forEach((card, index) => {
    card.style.setProperty('content-visibility', 'auto');
    card.style.setProperty('contain-intrinsic-block-size', `auto ${heights[index]}px`);
  });
  // Text, search and number boxes are drawn as plain boxes of the same size showing the same text
  // (`.prerendered-input` in web/llm-calc.css): a native box brings a shadow tree of its own (an
  // inner editor, a placeholder, spin or clear buttons) to style, lay out and paint, and Chromium's
  // form scan at DOMContentLoaded forces a style and layout pass per control (989 -> 682 forced
  // passes per load in traces; issue #22). Every box on the default page stretches or grows as its
  // input does (tests/browser/prerender.test.mjs compares their places). Nothing can be typed for
  // the moment before the live page replaces the pre-render.
  root.querySelectorAll('input').forEach((input) => {
    if (!['text', 'search', 'number'].includes(input.type) || !input.getClientRects().length) return;
    const box = document.createElement('span');
    box.className = input.value ? 'prerendered-input' : 'prerendered-input placeholder';
    box.setAttribute('data-for', input.id);
    box.append(document.createElement('span'));
    box.firstChild.textContent = input.value || input.placeholder;
    input.replaceWith(box);
  });
  root.querySelectorAll('input').forEach((input) => {
    if (input.type === 'checkbox' || input.type === 'radio') input.toggleAttribute('checked', input.checked);
    else if (input.type !== 'file') input.setAttribute('value', input.value);
  });
  // A closed menu shows its chosen option only, so the others stay out of the HTML (389 options,
  // 4.8 KB gzip); a menu opened in the tenth of a second before the live element replaces the
  // pre-render lists that one option. A menu as wide as its longest option (the language menu)
  // keeps the width it had with all of them, so the buttons beside it do not move when the live
  // page takes over.
  root.querySelectorAll('select').forEach((select) => {
    const width = select.getBoundingClientRect().width;
    Array.from(select.options).forEach((option) => {
      if (option.selected) option.setAttribute('selected', '');
      else option.remove();
    });
    if (Math.abs(select.getBoundingClientRect().width - width) > 0.01) select.style.setProperty('width', `${width}px`);
  });
  const rules = [];
  root.querySelectorAll('[style]').forEach((node, index) => {
    node.setAttribute('data-prerendered-style', String(index));
    rules.push(`[data-prerendered-style="${index}"]{${node.getAttribute('style')}}`);
    node.removeAttribute('style');
  });
  return {
    markup: root.innerHTML,
    rules: rules.join('\n'),
    state: host.settingsKey(),
    lang: host.lang,
    styles: window.LlmCalc.styles,
  };
}

// The default page as a <template shadowrootmode> and the texts of its two <style> elements (whose
// hashes the page's Content-Security-Policy must allow). English, as the page opens without a link.
export async function prerenderDefaultPage(distDir) {
  const server = createStaticServer(distDir);
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    // Every explore panel drawn (the element marks it once the last one is).
    await page.waitForFunction(() => document.querySelector('llm-calc')?.hasAttribute('data-explored'));
    if (errors.length) throw new Error(`pre-render: ${errors.join('; ')}`);
    const page0 = await page.evaluate(serializeCalculator);
    // Two <style> elements: the element's stylesheet, which the live element adopts from here
    // (dist/llm-calc-page.js has no copy of its own; LlmCalcElement.stylesheetText), and the
    // pre-render's own rules, with the mark of the state it shows. The host shows the pre-render
    // unless the page's guard (staleGuardScript) found it stale.
    const styles = [page0.styles,
      `${page0.rules}\n:host { display: var(--llmcalc-prerendered, block) !important; }`];
    if (styles.some((style) => /<\/style/i.test(style))) throw new Error('pre-render: the styles close their own element');
    const template = `<template shadowrootmode="open"><style data-llmcalc-styles>${styles[0]}</style>` +
      `<style data-prerendered-state="${page0.state}" data-prerendered-lang="${page0.lang}">${styles[1]}</style>` +
      `${page0.markup}</template>`;
    return { template, styles, guard: staleGuardScript(page0.state) };
  } finally {
    await browser.close();
    server.close();
  }
}

// A script for the page's <head>, run before the pre-render is parsed: where the address asks
// for another state than `state` (a share link) or the browser for Spanish, it marks the page
// stale, so the pre-rendered default is never laid out or painted (page.css hides the host until
// the element replaces it). The element clears the mark when it keeps the pre-render after all
// (web/src/60-element.mjs, showsPrerendered decides).
function staleGuardScript(state) {
  return `(function(){var h=location.hash,l=(navigator.language||"en").toLowerCase();` +
    `if((h&&h!=="#"&&h!==${JSON.stringify(state)})||l.indexOf("es")===0)` +
    `document.documentElement.classList.add("llmcalc-stale")})();`;
}
