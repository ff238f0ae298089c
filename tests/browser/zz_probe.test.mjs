import { openCalculator, browserSuite } from './harness.mjs';
import { test } from 'node:test';
const suite = browserSuite();
const state = (page) => page.evaluate(() => { const root = document.querySelector('llm-calc').shadowRoot;
  const n = root.querySelector('.notice:not([data-testid])'); const e = root.querySelector('.error');
  const v = (id) => root.querySelector('#' + id).value;
  return { engine: v('f-engine'), weights: v('f-weights'), kv: v('f-kv'), notice: n && !n.hidden ? n.textContent : '', error: e && !e.hidden ? e.textContent : '' }; });
const options = (page, id) => page.evaluate((id) => Array.from(document.querySelector('llm-calc').shadowRoot.querySelector('#' + id).options).filter((o) => !o.disabled && !o.hidden).map((o) => o.value), id);
test('probe', { timeout: 900000 }, async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  for (const model of ['llama-3.1-8b', 'qwen3-30b-a3b', 'gpt-oss-20b', 'deepseek-v4-flash', 'gemma-4-26b-a4b']) {
  for (const engine of await options(page, 'f-engine')) {
    await page.goto(`${suite.base}/index.html#v=1&model=${model}&hw=h100-sxm`); await page.reload();
    await page.locator('llm-calc [data-testid="decode"]').waitFor();
    await page.locator('llm-calc #f-engine').selectOption(engine); await page.waitForTimeout(100);
    let s = await state(page); if (s.notice || s.error || s.engine !== engine) { console.log(model, engine, JSON.stringify(s)); continue; }
    for (const w of await options(page, 'f-weights')) {
      await page.locator('llm-calc #f-weights').selectOption(w); await page.waitForTimeout(60);
      s = await state(page);
      if (s.notice || s.error || s.weights !== w) { console.log(model, engine, w, JSON.stringify(s)); await page.goto(`${suite.base}/index.html#v=1&model=${model}&engine=${engine}&hw=h100-sxm`); await page.reload(); await page.locator('llm-calc [data-testid="decode"]').waitFor(); }
      for (const kv of await options(page, 'f-kv')) {
        await page.locator('llm-calc #f-kv').selectOption(kv); await page.waitForTimeout(40);
        s = await state(page);
        if (s.notice || s.error || s.kv !== kv) { console.log(model, engine, w, kv, JSON.stringify(s)); await page.goto(`${suite.base}/index.html#v=1&model=${model}&engine=${engine}&hw=h100-sxm`); await page.reload(); await page.locator('llm-calc [data-testid="decode"]').waitFor(); await page.locator('llm-calc #f-weights').selectOption(w); }
      }
    }
  }}
  console.log('errors', JSON.stringify(errors));
  await context.close();
});
