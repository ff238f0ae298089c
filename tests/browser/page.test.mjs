// Browser tier: the real page in Chromium over http and from file://.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir, figure, openPage, openCalculator, browserSuite, waitForCalculator } from './harness.mjs';

const suite = browserSuite();

test('over http: defaults render, the context slider moves the KV figure and the hash', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await page.goto(`${suite.base}/index.html`);
  // Llama 3.1 8B, f16 KV, 8192 tokens: 32 layers x 8 KV heads x (128 + 128) x 2 bytes
  // = 131,072 bytes per token; x 8192 = 1 GiB exactly (1.07 GB).
  await waitForCalculator(page);
  assert.equal(await figure(page, 'kv'), '1.00 GiB · 1.07 GB');
  const slider = page.locator('llm-calc #f-ctx');
  await slider.focus();
  await page.keyboard.press('ArrowRight');  // next stop after 8192 is 12288
  await page.waitForFunction(() => location.hash.includes('ctx=12288'));
  // 12,288 tokens x 131,072 bytes = 1.5 GiB.
  assert.equal(await figure(page, 'kv'), '1.50 GiB · 1.61 GB');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a share URL reproduces the state in a fresh page; a broken one falls back with a notice', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&model=qwen3-8b&ctx=32768&weights=Q8_0`);
  assert.equal(await page.locator('llm-calc #f-model').inputValue(), 'qwen3-8b');
  assert.equal(await page.locator('llm-calc #f-weights').inputValue(), 'Q8_0');
  // Qwen3-8B: 36 layers x 8 KV heads x (128 + 128) x 2 bytes = 147,456 bytes per token;
  // x 32,768 tokens = 4.5 GiB.
  assert.equal(await figure(page, 'kv'), '4.50 GiB · 4.83 GB');

  await page.goto(`${suite.base}/index.html#v=1&model=not-a-model&ctx=4096`);
  await page.reload();
  await page.locator('llm-calc .notice:not([hidden])').waitFor();
  assert.equal(await page.locator('llm-calc #f-model').inputValue(), 'llama-3.1-8b');
  assert.deepEqual(errors, []);
  await context.close();
});

// Every figure, table cell, command and chart path of the short answer and the results, once the
// explore panels have settled (they follow the main figures by a debounce).
async function everyNumber(page) {
  await page.locator('llm-calc #speed-chart path.decode').waitFor();
  let previous = null;
  for (;;) {
    // The panels show the current state (the page waits for a pause in the changes first).
    await page.locator('llm-calc[data-explored]').waitFor();
    const snapshot = await page.locator('llm-calc').evaluate((host) => {
      const results = host.shadowRoot.querySelector('.results');
      return JSON.stringify({
        text: host.shadowRoot.querySelector('.summary').textContent + results.textContent,
        paths: Array.from(results.querySelectorAll('path')).map((path) => path.getAttribute('d')),
      });
    });
    if (snapshot === previous) return JSON.parse(snapshot);
    previous = snapshot;
    await page.waitForTimeout(250);
  }
}

test('a copied link reproduces every number of the results in a fresh page', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.base });
  // Set controls the way a user does: selects, number boxes, and an assumption.
  const choose = async (key, value) => {
    await page.locator(`llm-calc #f-${key}`).selectOption(value);
    await page.waitForFunction((k) => location.hash.includes(k + '='), key);
  };
  const type = async (key, value) => {
    await page.locator(`llm-calc #f-${key}`).fill(String(value));
    await page.locator(`llm-calc #f-${key}`).dispatchEvent('change');
    await page.waitForFunction((k) => location.hash.includes(k + '='), key);
  };
  await choose('model', 'qwen3-30b-a3b');
  await choose('weights', 'Q5_K_M');
  await choose('kv', 'q8_0');
  await choose('hw', 'rtx-3090');
  await type('n', 2);
  await type('prompt', 2048);
  await type('batch', 3);
  await page.locator('llm-calc #cost-assumptions summary').click();
  await type('kwh_cents', 30);
  await page.locator('llm-calc #speed-assumptions summary').click();
  await type('bw_eff', 80);
  const before = await everyNumber(page);
  await page.locator('llm-calc header button.copy').click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /#v=1&/);

  const fresh = await openCalculator(suite.browser, link);
  const after = await everyNumber(fresh.page);
  assert.equal(after.paths.length, before.paths.length);
  assert.deepEqual(after, before);
  assert.ok(before.text.includes('Qwen3 30B') || before.text.includes('Qwen3-30B'), 'the chosen model shows');
  assert.deepEqual(errors.concat(fresh.errors), []);
  await fresh.context.close();
  await context.close();
});

test('from file:// the single file works with every network request blocked', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  const requested = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requested.push(url);
    return url.startsWith('file:') || url.startsWith('data:') ? route.continue() : route.abort();
  });
  await page.goto(pathToFileURL(join(distDir, 'llm-calculator.html')).href);
  await waitForCalculator(page);
  assert.equal(await figure(page, 'kv'), '1.00 GiB · 1.07 GB');
  assert.match(await page.locator('llm-calc .verdict').textContent(), /\S/);
  assert.deepEqual(requested.filter((url) => !url.startsWith('file:') && !url.startsWith('data:')), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('launch commands follow the controls and copy to the clipboard', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.base });
  await page.goto(`${suite.base}/index.html#v=1&model=qwen3-8b&ctx=16384&batch=2`);
  await page.locator('llm-calc [data-engine="llama.cpp"] pre').waitFor();
  const command = await page.locator('llm-calc [data-engine="llama.cpp"] pre').textContent();
  // llama-server's -c is the total of the -np slots: 16,384 x 2.
  assert.match(command, /-c 32768 -np 2/);
  await page.locator('llm-calc [data-engine="vllm"] button').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  // vLLM admits up to its own max-num-seqs; the context is per request.
  assert.match(copied, /^vllm serve \S+ --max-model-len 16384/);
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue #22: a slider step shows its figures at once and leaves the commands, cost and fine-tune
// panels to a task once the slider rests (the core's "omit"); they then follow the new context,
// and a summary copied before that is already whole.
test('a context slider step fills the commands, cost and fine-tune panels once the slider rests', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&ctx=8192`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.base });
  const command = page.locator('llm-calc [data-engine="llama.cpp"] pre');
  assert.match(await command.textContent(), /-c 8192 /);
  await page.locator('llm-calc #f-ctx').focus();
  await page.keyboard.press('ArrowRight');  // 8192 -> 12288
  // The step's figure; the command follows once the slider has rested (200 ms).
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('[data-testid="kv"] dd').textContent.startsWith('1.50 GiB'));
  await page.waitForFunction(() => /-c 12288 /.test(document.querySelector('llm-calc').shadowRoot
    .querySelector('[data-engine="llama.cpp"] pre').textContent));
  // A step and the summary in one task, before the slider has rested: the copied text has the
  // new context's command all the same.
  await page.evaluate(async () => {
    const root = document.querySelector('llm-calc').shadowRoot;
    const slider = root.querySelector('#f-ctx');
    slider.value = String(Number(slider.value) + 1);  // 12288 -> 16384
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    await Promise.resolve();  // the step's render (a microtask)
    root.querySelector('#copy-summary').click();
  });
  await page.waitForFunction(async () => /-c 16384 /.test(await navigator.clipboard.readText()));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the rank view sorts and its rows open the calculator for that model', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await page.goto(`${suite.base}/index.html#v=1&hw=rtx-4090&ctx=8192`);
  await page.locator('llm-calc #rank-button').click();
  await page.locator('llm-calc #rank-table tbody tr').first().waitFor();
  await page.locator('llm-calc #rank-table:not([aria-busy])').waitFor();  // its rows after the first 40
  assert.ok(await page.locator('llm-calc #rank-table tbody tr').count() >= 80);
  // Sort by decode speed: a numeric column sorts largest first on the first click.
  await page.locator('llm-calc #rank-table [data-sort="decode"]').click();
  const speeds = await page.locator('llm-calc #rank-table tbody tr td:nth-child(4)').allTextContents();
  const numbers = speeds.slice(0, 10).map((s) => parseFloat(s.replace(/,/g, '')));
  for (let i = 1; i < numbers.length; ++i) assert.ok(numbers[i - 1] >= numbers[i], speeds.slice(0, 10).join(' | '));
  // The quality floor: at 8 bits per weight, every row is Q8_0.
  await page.locator('llm-calc #rank-min-bits').selectOption('8');
  await page.locator('llm-calc #rank-table tbody tr').first().waitFor();
  const formats = await page.locator('llm-calc #rank-table tbody tr td:nth-child(2)').allTextContents();
  assert.ok(formats.every((text) => text.startsWith('Q8_0')), formats.slice(0, 5).join(' | '));
  const first = page.locator('llm-calc #rank-table tbody tr').first();
  const model = await first.getAttribute('data-model');
  await first.locator('a').click();
  await page.waitForFunction((m) => location.hash.includes('model=' + m), model);
  await page.waitForFunction((m) => document.querySelector('llm-calc').shadowRoot.querySelector('#f-model').value === m, model);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a long table writes its first 40 rows at once, the rest once that frame is painted; its CSV has every row', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&hw=rtx-4090`);
  // The moment the first row is in the table: 40 rows (web/src/56-sortable-table.mjs FIRST_ROWS)
  // and the table busy.
  const first = await page.locator('llm-calc').evaluate((host) => new Promise((done) => {
    const root = host.shadowRoot;
    const observer = new MutationObserver(() => {
      const table = root.querySelector('#rank-table');
      if (!table || !table.querySelector('tbody tr')) return;
      observer.disconnect();
      done({ rows: table.querySelectorAll('tbody tr').length, busy: table.getAttribute('aria-busy') });
    });
    observer.observe(root, { subtree: true, childList: true });
    root.querySelector('#rank-button').click();
  }));
  assert.deepEqual(first, { rows: 40, busy: 'true' });
  await page.locator('llm-calc #rank-table:not([aria-busy])').waitFor();
  const all = await page.locator('llm-calc #rank-table tbody tr').count();
  assert.ok(all >= 80, `${all} rows`);
  // Sorted again and saved in the same task, before its rows after the first 40 are written: the
  // CSV still has them all, in the new order.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('llm-calc').evaluate((host) => {
    host.shadowRoot.querySelector('#rank-table [data-sort="decode"]').click();
    host.shadowRoot.querySelector('[data-testid="rank-table-csv"]').click();
  })]);
  const lines = (await (await import('node:fs/promises')).readFile(await download.path(), 'utf8')).trim().split('\r\n');
  assert.equal(lines.length, all + 1);
  const names = await page.locator('llm-calc #rank-table tbody tr td:first-child').allTextContents();
  assert.deepEqual(lines.slice(1).map((line) => JSON.parse('[' + line + ']')[0]), names);
  assert.deepEqual(errors, []);
  await context.close();
});

test('script payloads in the URL hash are rejected and never run', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  const payload = encodeURIComponent('<img src=x onerror="window.__pwned=1">');
  await page.goto(`${suite.base}/index.html#v=1&model=${payload}&hw=%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E&ctx=1e999`);
  await page.locator('llm-calc .notice:not([hidden])').waitFor();
  assert.equal(await page.locator('llm-calc #f-model').inputValue(), 'llama-3.1-8b');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('llm-calc img, llm-calc script').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('cost assumptions come from the link and the controls; bad ones fall back with a notice', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  // RTX 4090 ($1,599 launch, 450 W), defaults: $0.15/kWh, 8 h/day, 36 months.
  // Own monthly = 0.45 kW x $0.15 x 8 h x 30.4375 days + $1,599 / 36 = $16.44 + $44.42 = $60.85.
  await page.goto(`${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090`);
  await page.locator('llm-calc [data-testid="cost-monthly"]').waitFor();
  assert.match(await figure(page, 'cost-monthly'), /^\$61 \//);
  // 24 h/day: $16.44 x 3 = $49.31 + $44.42 = $93.73.
  await page.goto(`${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090&hours=24`);
  await page.reload();
  await page.locator('llm-calc [data-testid="cost-monthly"]').waitFor();
  assert.match(await figure(page, 'cost-monthly'), /^\$94 \//);
  assert.equal(await page.locator('llm-calc #f-hours').inputValue(), '24');
  // Free electricity from the control: only the purchase remains, $44.42.
  await page.locator('llm-calc #cost-assumptions summary').click();
  await page.locator('llm-calc #f-kwh_cents').fill('0');
  await page.locator('llm-calc #f-kwh_cents').dispatchEvent('change');
  await page.waitForFunction(() => location.hash.includes('kwh_cents=0'));
  assert.match(await figure(page, 'cost-monthly'), /^\$44 \//);
  // 25 hours a day is refused by the core at /cost/hours_per_day; the page resets that key.
  await page.goto(`${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090&hours=25`);
  await page.reload();
  await page.locator('llm-calc .notice:not([hidden])').waitFor();
  assert.equal(await page.locator('llm-calc #f-hours').inputValue(), '8');
  assert.match(await figure(page, 'cost-monthly'), /^\$61 \//);
  assert.deepEqual(errors, []);
  await context.close();
});

test('matrix, memory chart and device table follow the estimate', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await page.goto(`${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090`);
  await page.locator('llm-calc #matrix-table tbody tr').first().waitFor();
  // Q8_0 at 8K: 7.95 GiB of weights + 1 GiB KV + buffers fits a 24 GiB card comfortably.
  const q8 = page.locator('llm-calc #matrix-table tbody tr').first();
  assert.equal(await q8.locator('th').textContent(), 'Q8_0');
  assert.match(await q8.locator('td').first().getAttribute('class'), /comfortable/);
  assert.equal(await page.locator('llm-calc #memory-chart circle').count(), 9);  // 4K ... 1M
  // Cost over time: own (priced card), rent (RTX 4090 offers) and API (Llama 3.1 8B prices) lines.
  assert.deepEqual(await page.locator('llm-calc #cost-chart path.series').evaluateAll(
    (paths) => paths.map((p) => p.getAttribute('class'))), ['series own', 'series rent', 'series api']);
  assert.match(await page.locator('llm-calc #cost-chart svg').getAttribute('aria-label'), /36 months/);
  // The device table is built when its section opens.
  assert.equal(await page.locator('llm-calc #device-table').count(), 0);
  await page.locator('llm-calc #devices-card summary').click();
  await page.locator('llm-calc #device-table:not([aria-busy])').waitFor();
  assert.ok(await page.locator('llm-calc #device-table tbody tr').count() >= 90);
  assert.deepEqual(errors, []);
  await context.close();
});

test('decode against context, the live preview and the speed assumptions', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090`);
  await page.locator('llm-calc #speed-chart path.decode').waitFor();
  // One dot per context from 4K to 1M; the decode line only falls (SVG y grows downwards).
  assert.equal(await page.locator('llm-calc #speed-chart circle').count(), 9);
  const ys = (await page.locator('llm-calc #speed-chart path.decode').getAttribute('d'))
    .match(/[\d.]+ [\d.]+/g).map((pair) => Number(pair.split(' ')[1]));
  ys.slice(1).forEach((y, i) => assert.ok(y > ys[i], `y ${ys.join(',')}`));
  assert.equal(await page.locator('llm-calc #speed-chart path.band').count(), 2);
  // The chosen context (8,192 by default) is marked on both context charts.
  assert.equal(await page.locator('llm-calc #speed-chart .marker-text').textContent(), 'now 8K');
  assert.equal(await page.locator('llm-calc #memory-chart .marker-text').textContent(), 'now 8K');

  // The preview: nothing before the time to first token, then rate x time tokens, 4 characters each.
  const decodeText = await figure(page, 'decode');
  await page.locator('llm-calc #stream-button').click();
  const stream = page.locator('llm-calc [data-testid="stream"]');
  await page.waitForFunction(() => Number(document.querySelector('llm-calc').shadowRoot
    .querySelector('[data-testid="stream"]').dataset.tokens) >= 30);
  const d = await stream.evaluate((node) => ({ ...node.dataset, length: node.textContent.length }));
  const rate = Number(d.rate);
  assert.ok(decodeText.startsWith(rate.toFixed(rate >= 100 ? 0 : 1)), `${decodeText} vs ${rate}`);
  const expected = Math.floor((Number(d.elapsedMs) / 1000 - Number(d.ttftMs) / 1000) * rate);
  assert.ok(Math.abs(Number(d.tokens) - expected) <= 1, `${d.tokens} tokens, expected ${expected}`);
  assert.equal(d.length, 4 * Number(d.tokens));
  await page.locator('llm-calc #stream-button').click();  // stop

  // Assumptions: empty boxes show the calibrated CUDA values (data/speed_calibration.json).
  const calibration = JSON.parse(readFileSync(new URL('../../data/speed_calibration.json', import.meta.url), 'utf8'));
  const cuda = calibration.backends.cuda;
  assert.equal(await page.locator('llm-calc #f-bw_eff').getAttribute('placeholder'), String(Math.round(100 * cuda.bandwidth_efficiency)));
  assert.equal(await page.locator('llm-calc #f-qcmp_eff').getAttribute('placeholder'), String(Math.round(100 * cuda.quantized_compute_efficiency)));
  assert.equal(await page.locator('llm-calc #f-attn_eff').getAttribute('placeholder'), String(Math.round(100 * cuda.attention_compute_efficiency)));
  assert.equal(await page.locator('llm-calc #f-ovh_us').getAttribute('placeholder'), String(Math.round(1e6 * cuda.per_layer_overhead_s)));
  assert.equal(await page.locator('llm-calc #f-comfort_pct').getAttribute('placeholder'), '90');
  assert.equal(await page.locator('llm-calc #f-uma_pct').getAttribute('placeholder'), 'auto');
  // Decode is memory-bound: step = bytes / (1,008 GB/s x efficiency) + 32 layers x overhead.
  // The bytes read per token follow from the calibrated figure; 50% must then give this speed.
  const overhead = 32 * cuda.per_layer_overhead_s;
  const calibrated = parseFloat(decodeText);
  const bytes = (1 / calibrated - overhead) * 1008e9 * cuda.bandwidth_efficiency;
  const predicted = 1 / (bytes / (1008e9 * 0.5) + overhead);
  await page.locator('llm-calc #speed-assumptions summary').click();
  await page.locator('llm-calc #f-bw_eff').fill('50');
  await page.locator('llm-calc #f-bw_eff').dispatchEvent('change');
  await page.waitForFunction(() => location.hash.includes('bw_eff=50'));
  const halved = parseFloat(await figure(page, 'decode'));
  assert.ok(Math.abs(halved - predicted) / predicted < 0.005, `${halved} vs ${predicted.toFixed(2)}`);
  // Emptying the box returns to the calibrated value.
  await page.locator('llm-calc #f-bw_eff').fill('');
  await page.locator('llm-calc #f-bw_eff').dispatchEvent('change');
  await page.waitForFunction(() => !location.hash.includes('bw_eff'));
  assert.equal(await figure(page, 'decode'), decodeText);
  // A link the core refuses (vLLM may not take 3% of the GPU) resets that key with a notice.
  await page.goto(`${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090&gpu_util=3`);
  await page.reload();
  await page.locator('llm-calc .notice:not([hidden])').waitFor();
  assert.equal(await page.locator('llm-calc #f-gpu_util').inputValue(), '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('GLM-4-32B-0414 at Q4_K_M with 8K context on an A40 48GB: fit, speeds, cost, recommendations, rent vs buy', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=glm-4-32b-0414&weights=Q4_K_M&ctx=8192&hw=a40`);
  await page.locator('llm-calc #cost-chart path.series').first().waitFor();
  // KV by hand: 61 layers x 2 KV heads x 128 x (K + V) x 2 bytes = 62,464 B per token; x 8,192
  // tokens = 511,705,088 B = 0.48 GiB = 0.51 GB.
  assert.equal(await figure(page, 'kv'), '0.48 GiB · 0.51 GB');
  // Usable: the 44.42 GiB the driver reports of an A40's 48 with ECC on (data/devices/a40.json
  // cuda_total_source), less the 512 MiB CUDA context and the 1 GiB llama.cpp's --fit leaves free
  // = 42.92 GiB = 46.085 GB (47.6956 - 0.5369 - 1.0737); the margin beside it.
  assert.equal(await figure(page, 'usable'), '42.92 GiB · 46.08 GB');
  const total = parseFloat((await figure(page, 'total')).split(' · ')[1]);
  const headroom = parseFloat((await figure(page, 'headroom')).split(' · ')[1]);
  assert.ok(Math.abs(total + headroom - 46.085) < 0.015, `${total} + ${headroom}`);
  // Utilization = total / usable, e.g. 19.87 GB / 46.085 GB = 43%.
  assert.equal(await page.locator('llm-calc [data-testid="verdict"]').textContent(),
               `Fits comfortably · ${Math.round(100 * total / 46.085)}% of usable memory at the fullest device`);
  const decode = parseFloat(await figure(page, 'decode'));
  assert.match(await figure(page, 'decode'), /likely range .* memory-bound/);
  assert.match(await figure(page, 'ttft'), /^\d/);
  // Renting: the cheapest A40 offer in data/cloud_offers.json is RunPod community at $0.35/h, so
  // $ per 1M output tokens = 0.35 x 1e6 / (3,600 x decode); a month of 8 h/day = 0.35 x 8 x 30.4375 = $85.
  const rent = await figure(page, 'cost-rent');
  assert.match(rent, /\(RunPod, \$0\.35\/h\)/);
  const perMillion = 0.35 * 1e6 / (3600 * decode);
  assert.ok(Math.abs(parseFloat(rent.slice(1)) - perMillion) / perMillion < 0.01, `${rent} vs ${perMillion.toFixed(2)}`);
  // The API: Z.ai's $0.10 per 1M tokens (data/api_prices.json); 1M tokens a day for a month = $3.04.
  assert.match(await figure(page, 'cost-api'), /^\$0\.10 \(Z\.ai/);
  // Buying: $5,843 (an archived 2025 distributor listing, data/devices/a40.json) over 36 months, plus
  // 300 W x 8 h x 30.4375 days x $0.15/kWh = $10.96: $162.31 + $10.96 = $173 a month.
  assert.match(await figure(page, 'cost-monthly'), /^\$173 \/ \$85 \/ \$3\.04$/);
  // Break-even against renting: 5,843 / (85.23 - 10.96) = 78.7 months.
  assert.equal(await figure(page, 'cost-break-even'), '78.7 months');
  // Rent vs buy over time: the own, rent and API lines.
  assert.deepEqual(await page.locator('llm-calc #cost-chart path.series').evaluateAll(
    (paths) => paths.map((p) => p.getAttribute('class'))), ['series own', 'series rent', 'series api']);
  await page.locator('llm-calc[data-explored]').waitFor();
  const recommendations = await page.locator('llm-calc #recommendations').textContent();
  for (const label of ['Cheapest device', 'Best value used card', 'Unified-memory option', 'Cheapest cloud offer',
                       'Cheapest multi-GPU combination']) {
    assert.ok(recommendations.includes(label), label);
  }
  assert.doesNotMatch(recommendations, /\b[a-z0-9]+-[a-z0-9-]+\b \(/, 'devices are named, not shown by catalog id');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a parallel hybrid in the architecture card: Falcon-H1 0.5B keeps KV and Mamba state in every layer', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=falcon-h1-0.5b&ctx=8192`);
  await page.locator('llm-calc [data-testid="params-total"]').waitFor();
  // Hub total of tiiuae/Falcon-H1-0.5B-Base (data/models/falcon-h1-0.5b.json).
  assert.match(await figure(page, 'params-total'), /^521,411,104 /);
  // 36 layers x 2 KV heads x (64 + 64) x 2 bytes = 18,432 bytes per token.
  assert.equal(await figure(page, 'kv-per-token'), '18,432');
  assert.ok((await page.locator('llm-calc ul.layers').textContent()).includes('36 × full+ssm'));
  // KV at 8,192 tokens: 18,432 x 8,192 = 150,994,944 B, plus each layer's f32 Mamba2 state of
  // (3 x 1,792 + 1,536 x 128) x 4 B = 807,936 B, x 36 = 29,085,696 for each of llama-server's 4
  // automatic slots: 150,994,944 + 116,342,784 = 267,337,728 B = 0.25 GiB = 0.27 GB.
  assert.equal(await figure(page, 'kv'), '0.25 GiB · 0.27 GB');
  assert.deepEqual(errors, []);
  await context.close();
});

test("the core's warnings are shown: a config of an unknown family", async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  await page.locator('llm-calc #f-file').setInputFiles({
    name: 'config.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ model_type: 'mystery_lm', hidden_size: 2048, intermediate_size: 8192,
      num_hidden_layers: 16, num_attention_heads: 16, vocab_size: 32000 })),
  });
  const warnings = page.locator('llm-calc [data-testid="warnings"]');
  await warnings.waitFor();
  assert.match(await warnings.textContent(), /^Note: Unknown model_type 'mystery_lm': computed as a generic decoder/);
  // A catalog model without warnings hides the line again.
  await page.locator('llm-calc #f-model').selectOption('llama-3.1-8b');
  await warnings.waitFor({ state: 'hidden' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('llama.cpp --fit: a model larger than the card runs with experts in RAM, and the page says which release it models', async () => {
  // Qwen3-30B-A3B Q4_K_M (17.3 GiB of weights) at its native 40,960 tokens on a 16 GiB card:
  // --fit keeps every layer's attention on the GPU and moves routed experts to system RAM.
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=qwen3-30b-a3b&weights=Q4_K_M&hw=rtx-4060-ti-16gb&ctx=40960`);
  const verdict = (await page.locator('llm-calc [data-testid="verdict"]').textContent()).trim();
  assert.match(verdict, /^Runs with parts in system RAM/);
  const placement = await figure(page, 'placement');
  assert.match(placement, /^llama\.cpp's --fit keeps 49 of 49 layers on the GPU, with the experts of \d+ layers in system RAM/);
  assert.match(await figure(page, 'host'), /prompt cache up to 8\.00 GiB/);
  assert.match(await page.locator('llm-calc [data-testid="engine-release"]').textContent(), /models b11541 \(2026-10-10\)/);
  // The command leaves the placement to --fit: no -ngl.
  const command = await page.locator('llm-calc .command[data-engine="llama.cpp"] pre').textContent();
  assert.doesNotMatch(command, /-ngl/);
  // Ollama names the llama-server it runs.
  await page.locator('llm-calc #f-engine').selectOption('ollama');
  await page.waitForFunction(() => location.hash.includes('engine=ollama'));
  assert.match(await page.locator('llm-calc [data-testid="engine-release"]').textContent(), /v0\.34\.2 .* llama-server \(llama\.cpp b10969\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the engine's own context: llama-server without -c, today and in the builds of PR #28849", async () => {
  // Qwen3-0.6B Q8_0 on an RTX 4090 with ctx=0 (no -c): 28 layers x 8 KV heads x (128 + 128) x 2 B
  // = 114,688 B per token. Today's --fit starts from the trained 40,960 cells, which fit:
  // 40,960 x 114,688 B = 4.38 GiB of cache for the 4 slots.
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=qwen3-0.6b&weights=Q8_0&ctx=0`);
  assert.equal(await page.locator('llm-calc #f-ctx-auto').isChecked(), true);
  assert.equal(await page.locator('llm-calc #f-ctx').isDisabled(), true);
  assert.equal((await page.locator('llm-calc #ctx-value').textContent()).trim(), '40,960 tokens · chosen by the engine');
  assert.match(await figure(page, 'kv'), /^4\.38 GiB/);
  const command = await page.locator('llm-calc .command[data-engine="llama.cpp"] pre').textContent();
  assert.doesNotMatch(command, / -c /);
  // Build 11146 (v0.5.0), between PR #28849 (b10999) and its revert (b11201): --fit tried the
  // trained 40,960 x 4 slots = 163,840 cells, which fit: 163,840 x 114,688 B = 17.50 GiB.
  await page.locator('llm-calc #speed-assumptions summary').click();
  assert.equal(await page.locator('llm-calc #f-llama_build').getAttribute('placeholder'), '11541');
  await page.locator('llm-calc #f-llama_build').fill('11146');
  await page.locator('llm-calc #f-llama_build').dispatchEvent('change');
  await page.waitForFunction(() => location.hash.includes('llama_build=11146'));
  assert.match(await figure(page, 'kv'), /^17\.50 GiB/);
  assert.equal(await figure(page, 'placement'), "Without -c, llama.cpp's --fit gives its 4 slots one shared cache of " +
    '163,840 tokens (at most the trained context × 4); one request can use up to 40,960.');
  assert.equal((await page.locator('llm-calc #ctx-value').textContent()).trim(), '40,960 tokens · chosen by the engine');
  // Unticked, the context is the one the engine chose for a request, now set (-c 40960).
  await page.locator('llm-calc #f-ctx-auto').uncheck();
  await page.waitForFunction(() => location.hash.includes('ctx=40960'));
  assert.equal(await page.locator('llm-calc #f-ctx').isDisabled(), false);
  assert.match(await figure(page, 'kv'), /^4\.38 GiB/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an unsloth Dynamic quant from the menu is sized from its published file, and the page says so', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=qwen3-30b-a3b&weights=UD-Q4_K_XL`);
  // unsloth/Qwen3-30B-A3B-GGUF lists UD-Q4_K_XL at 17,715,663,424 B = 16.50 GiB = 17.72 GB.
  assert.match(await figure(page, 'weights'), /^16\.50 GiB · 17\.72 GB/);
  assert.match(await page.locator('llm-calc [data-testid="warnings"]').textContent(),
    /UD-Q4_K_XL is sized from the file size unsloth\/Qwen3-30B-A3B-GGUF publishes/);
  assert.equal(await page.locator('llm-calc #f-weights option[value="UD-IQ1_S"]').count(), 1);
  // A model whose repositories publish none: the menu drops them and the format falls back.
  await page.locator('llm-calc #f-model').selectOption('llama-3.1-8b');
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('#f-weights').value === 'Q4_K_M');
  assert.equal(await page.locator('llm-calc #f-weights option[value="UD-IQ1_S"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a Mac has a time to first token, from its GPU\'s FP32 rate', async () => {
  // Llama 3.1 8B Q4_K_M on an M4 Max 40-core, a 4,096-token prompt: 6.0867 s of compute at
  // 2 x 17.18 TFLOPS x 0.315 plus 0.0106 s for one pass over the weights (by hand in
  // tests/core/test_speed.cpp, "A Mac has a time to first token"). Before, every Mac said it had
  // no compute figure.
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=llama-3.1-8b&weights=Q4_K_M&hw=m4-max-128gb&ctx=8192&prompt=4096`);
  const answers = await page.locator('llm-calc [data-testid="answers"]').textContent();
  assert.match(answers, /and 6\.10 s before the first token of a 4,096-token prompt/);
  assert.doesNotMatch(answers, /no compute figure/);
  assert.match(await figure(page, 'ttft'), /^6\.1/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a setup that does not fit shows no speed, in English and Spanish', async () => {
  // DeepSeek V3 (671B) on one RTX 4090 cannot start: no decode, prefill or first-token figures.
  // llama.cpp's --fit keeps the card within its memory and puts the routed experts in system RAM,
  // which 671B at Q4_K_M overflows: the answer says what is short, never what is "to spare".
  for (const [lang, noSpeed, notHere, shortOf] of [
    ['en', /It does not fit, so there is no speed/, /does not run here/, /does not fit, [\d.,]+ GiB short of system RAM\./],
    ['es', /No cabe, así que en esta configuración no hay velocidad/, /no funciona aquí/, /no cabe; faltan [\d.,]+ GiB de RAM del sistema\./]]) {
    const { context, page, errors } = await openCalculator(suite.browser,
      `${suite.base}/index.html#v=1&model=deepseek-v3&hw=rtx-4090&lang=${lang}`);
    assert.match(await page.locator('llm-calc [data-testid="verdict"]').textContent(), lang === 'en' ? /^Does not fit/ : /^No cabe/);
    assert.match(await page.locator('llm-calc [data-testid="answers"]').textContent(), noSpeed);
    assert.match(await page.locator('llm-calc [data-testid="answers"]').textContent(), shortOf);
    for (const id of ['decode', 'ttft']) assert.match(await figure(page, id), notHere);
    assert.equal(await page.locator('llm-calc #stream-button').isDisabled(), true);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('share links typed by hand: no version, any case; a broken one names its settings; Back restores the language', async () => {
  const typed = await openCalculator(suite.browser, `${suite.base}/index.html#lang=es&model=Qwen3-8B&weights=q8_0`);
  assert.equal(await typed.page.locator('llm-calc h1').textContent(), 'Calculadora de inferencia de LLM');
  assert.equal(await typed.page.locator('llm-calc #f-model').inputValue(), 'qwen3-8b');
  assert.equal(await typed.page.locator('llm-calc #f-weights').inputValue(), 'Q8_0');
  assert.equal(await typed.page.locator('llm-calc .notice').first().isHidden(), true);
  assert.deepEqual(typed.errors, []);
  await typed.context.close();

  const broken = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&ctx=abc&hw=no-such-card`);
  const notice = await broken.page.locator('llm-calc .notice').first().textContent();
  assert.match(notice, /not valid \(.*Context length \(tokens\).*\)/);
  assert.match(notice, /Device/);
  assert.deepEqual(broken.errors, []);
  await broken.context.close();
  const roto = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&ctx=abc&lang=es`);
  assert.match(await roto.page.locator('llm-calc .notice').first().textContent(),
               /^Parte de este enlace no era válida \(.*\); esos ajustes volvieron a sus valores por defecto\.$/);
  assert.deepEqual(roto.errors, []);
  await roto.context.close();

  const back = await openCalculator(suite.browser, `${suite.base}/index.html#v=1`);
  await back.page.locator('llm-calc #f-lang').selectOption('es');
  await back.page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot.querySelector('h1').textContent.startsWith('Calculadora'));
  await back.page.goBack();
  await back.page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot.querySelector('h1').textContent.startsWith('LLM'));
  assert.equal(await back.page.locator('llm-calc #f-lang').inputValue(), 'en');
  assert.deepEqual(back.errors, []);
  await back.context.close();
});

test('number boxes refuse what they cannot take, with a message; the context takes an exact value', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1`);
  const before = await figure(page, 'kv');
  for (const [id, value, message] of [['batch', '5000', /from 1 to 1,024/], ['prompt', '-3', /whole number/],
    ['prompt', '1.5', /whole number/], ['n', '0', /from 1 to 1,024/]]) {
    await page.locator(`llm-calc #f-${id}`).fill(value);
    await page.locator(`llm-calc #f-${id}`).dispatchEvent('change');
    assert.match(await page.locator(`llm-calc #f-${id}-error`).textContent(), message, `${id}=${value}`);
    assert.equal(await page.locator(`llm-calc #f-${id}`).getAttribute('aria-invalid'), 'true');
    assert.equal(await figure(page, 'kv'), before, 'the figures keep the last accepted value');
  }
  // An exact context between the slider's stops: 20,000 tokens.
  await page.locator('llm-calc #f-ctx_exact').fill('20000');
  await page.locator('llm-calc #f-ctx_exact').dispatchEvent('change');
  await page.waitForFunction(() => location.hash.includes('ctx=20000'));
  assert.match(await page.locator('llm-calc #ctx-value').textContent(), /^20,000 tokens/);
  assert.equal(await page.locator('llm-calc #f-batch-error').isHidden(), true, 'an accepted change clears the messages');
  // A prompt longer than the context is not taken silently.
  await page.locator('llm-calc #f-prompt').fill('30000');
  await page.locator('llm-calc #f-prompt').dispatchEvent('change');
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('[data-testid="warnings"]').textContent.includes('longer than the context'));
  // In Spanish, the box's message and the core's warning (es-ES writes 1024 without a separator).
  const spanish = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&lang=es`);
  await spanish.page.locator('llm-calc #f-batch').fill('5000');
  await spanish.page.locator('llm-calc #f-batch').dispatchEvent('change');
  assert.equal(await spanish.page.locator('llm-calc #f-batch-error').textContent(), 'Escribe un número entero de 1 a 1024.');
  await spanish.page.locator('llm-calc #f-prompt').fill('30000');
  await spanish.page.locator('llm-calc #f-prompt').dispatchEvent('change');
  await spanish.page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('[data-testid="warnings"]').textContent.includes('El prompt es más largo que el contexto'));
  assert.deepEqual(spanish.errors, []);
  await spanish.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test('the ranking is fastest first within a verdict and is withdrawn when the settings change', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&hw=rtx-4090`);
  await page.locator('llm-calc #rank-button').click();
  await page.locator('llm-calc #rank-table tbody tr').first().waitFor();
  const rows = await page.locator('llm-calc #rank-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    verdict: tr.querySelector('.verdict-cell').className, decode: parseFloat(tr.children[3].textContent.replace(/,/g, '')) })));
  const comfortable = rows.filter((r) => r.verdict.includes('comfortable')).map((r) => r.decode);
  assert.ok(comfortable.length > 5);
  for (let i = 1; i < comfortable.length; ++i) assert.ok(comfortable[i] <= comfortable[i - 1], `row ${i}`);
  await page.locator('llm-calc #f-hw').selectOption('rtx-3090');
  await page.locator('llm-calc [data-testid="rank-stale"]').waitFor();
  assert.equal(await page.locator('llm-calc #rank-table').count(), 0);
  // In Spanish, the withdrawn ranking says so too.
  await page.locator('llm-calc #f-lang').selectOption('es');
  await page.locator('llm-calc #rank-button').click();
  await page.locator('llm-calc #rank-table tbody tr').first().waitFor();
  await page.locator('llm-calc #f-hw').selectOption('rtx-4090');
  assert.equal(await page.locator('llm-calc [data-testid="rank-stale"]').textContent(),
               'Los ajustes cambiaron desde la clasificación: pulsa el botón para clasificar de nuevo.');
  assert.deepEqual(errors, []);
  await context.close();
});

test('when it does not fit, the page offers what would run, and one click applies it', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=llama-3.1-70b&weights=BF16&engine=vllm&hw=h100-sxm`);
  assert.match(await page.locator('llm-calc [data-testid="verdict"]').textContent(), /^Does not fit/);
  const advice = page.locator('llm-calc [data-testid="advice"] button');
  await advice.first().waitFor();
  const offers = await advice.allTextContents();
  assert.ok(offers.some((o) => /^Use (FP8|AWQ-INT4) /.test(o)), offers.join(' | '));
  assert.ok(offers.some((o) => /^Use \d+ of this device$/.test(o)), offers.join(' | '));
  // The format offer, applied: the page now runs it.
  await advice.filter({ hasText: /^Use (FP8|AWQ-INT4) / }).first().click();
  await page.waitForFunction(() => !document.querySelector('llm-calc').shadowRoot
    .querySelector('[data-testid="verdict"]').textContent.startsWith('Does not fit'));
  assert.match(await page.locator('llm-calc #f-weights').inputValue(), /^(FP8|AWQ-INT4)$/);
  assert.equal(await page.locator('llm-calc #advice').isHidden(), true);
  // The same offers in Spanish.
  const spanish = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=llama-3.1-70b&weights=BF16&engine=vllm&hw=h100-sxm&lang=es`);
  assert.match(await spanish.page.locator('llm-calc [data-testid="verdict"]').textContent(), /^No cabe/);
  const ofertas = spanish.page.locator('llm-calc [data-testid="advice"] button');
  await ofertas.first().waitFor();
  assert.ok((await ofertas.allTextContents()).some((o) => /^Usar (FP8|AWQ-INT4) /.test(o)));
  assert.deepEqual(spanish.errors, []);
  await spanish.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});

// The module is built without exceptions: a broken invariant traps. Simulated here by a factory
// whose instances throw WebAssembly's RuntimeError on one estimate call (web/src/10-core.mjs).
test('a trap inside the module shows an internal error, and a fresh instance answers the next change', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await page.addInitScript(() => {
    let real;
    window.instances = 0;
    window.trapNext = false;
    const wrapped = (options) => real(options).then((module) => {
      window.instances += 1;
      const estimate = module.estimate.bind(module);
      module.estimate = (request) => {
        if (window.trapNext) {
          window.trapNext = false;
          throw new WebAssembly.RuntimeError('unreachable');
        }
        return estimate(request);
      };
      return module;
    });
    Object.defineProperty(window, 'createLlmCalcCore', {
      configurable: true, set(factory) { real = factory; }, get() { return real && wrapped; },
    });
  });
  await page.goto(`${suite.base}/index.html`);
  await waitForCalculator(page);
  assert.equal(await page.evaluate(() => window.instances), 1);
  const slider = page.locator('llm-calc #f-ctx');
  await slider.focus();
  await page.evaluate(() => { window.trapNext = true; });
  await page.keyboard.press('ArrowRight');
  const alert = page.locator('llm-calc p.error');
  await alert.waitFor();
  assert.match(await alert.textContent(), /Internal error: unreachable/);
  await page.waitForFunction(() => window.instances === 2);
  await page.keyboard.press('ArrowRight');  // 12288 -> 16384 tokens
  await alert.waitFor({ state: 'hidden' });
  // Llama 3.1 8B, f16 KV: 131,072 bytes per token x 16,384 tokens = 2 GiB.
  assert.equal(await figure(page, 'kv'), '2.00 GiB · 2.15 GB');
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue #22: the page's Spanish is a script of its own (dist/llm-calc-es.js), which a page in
// English never asks for; switching to Spanish reads it once, and the page is then in Spanish.
test('an English page does not load the Spanish tables; switching to Spanish loads them once', async () => {
  const { context, page, errors } = await openPage(suite.browser, { locale: 'en-US' });
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto(`${suite.base}/index.html`);
  await waitForCalculator(page);
  // (The page's worker asks for llmcalc_core.js again: a revalidation the cache answers.)
  assert.deepEqual([...new Set(requested.filter((path) => path.endsWith('.js')))].sort(), ['/llm-calc-page.js', '/llmcalc_core.js']);
  await page.locator('llm-calc #f-lang').selectOption('es');
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('#f-lang').getAttribute('aria-label') === 'Idioma');
  await page.locator('llm-calc #f-lang').selectOption('en');
  await page.locator('llm-calc #f-lang').selectOption('es');
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('#f-lang').getAttribute('aria-label') === 'Idioma');
  assert.equal(requested.filter((path) => path === '/llm-calc-es.js').length, 1);
  assert.deepEqual(errors, []);
  await context.close();
});

// llama.cpp's -hf and Ollama load a vision model's projector (mmproj) beside its text
// (core/src/mmproj_memory.cpp): the page shows it as a part of its own, in the bar and the math.
// Gemma 3 4B: llama.cpp logged an 811.79 MiB projector and a 121.25 MiB warm-up buffer (PR #22790,
// 2026-05-07), 0.91 GiB in all; a text model shows no such part.
test('a vision model under llama.cpp shows its projector (mmproj) as a part of its own; a text model none', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&model=gemma-3-4b`);
  const projector = await figure(page, 'projector');
  const gib = Number(/^([\d.]+) GiB/.exec(projector)[1]);
  assert.ok(gib >= 0.89 && gib <= 0.93, projector);
  assert.match(await page.locator('llm-calc .math li', { hasText: 'vision projector' }).textContent(), /mmproj/);
  const segment = await page.locator('llm-calc .seg.p').getAttribute('title');
  assert.equal(segment, `Vision projector (mmproj): ${projector.split(' · ')[0]}`);
  await page.goto(`${suite.base}/index.html#v=1&model=llama-3.1-8b`);
  await page.waitForFunction(() => !document.querySelector('llm-calc').shadowRoot.querySelector('[data-testid="projector"]'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a model with MTP layers offers drafting with them: the commands, the speed and the link follow', async () => {
  // Llama 3.1 8B ships no MTP layers: no box.
  const plain = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&model=llama-3.1-8b`);
  assert.equal(await plain.page.locator('llm-calc #f-mtp').isVisible(), false);
  await plain.context.close();
  // Qwen3.6-27B has one (mtp_num_hidden_layers 1).
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&model=qwen3.6-27b`);
  const single = parseFloat(await figure(page, 'decode'));
  await page.locator('llm-calc #f-mtp').check();
  await page.waitForFunction(() => location.hash.includes('mtp=1'));
  assert.match(await page.locator('llm-calc [data-engine="llama.cpp"] pre').textContent(), /--spec-type draft-mtp --spec-draft-n-max 2/);
  assert.match(await page.locator('llm-calc [data-engine="vllm"] pre').textContent(),
    /--speculative-config '\{"method":"mtp","num_speculative_tokens":2\}'/);
  assert.match(await page.locator('llm-calc [data-engine="sglang"] pre').textContent(),
    /--speculative-algorithm EAGLE --speculative-num-steps 2 --speculative-eagle-topk 1 --speculative-num-draft-tokens 3/);
  // Drafts accepted at the calibrated rate give more tokens per weight read.
  assert.ok(parseFloat(await figure(page, 'decode')) > single);
  // The link reopens it checked.
  const reopened = await openCalculator(suite.browser, `${suite.base}/index.html${await page.evaluate(() => location.hash)}`);
  assert.equal(await reopened.page.locator('llm-calc #f-mtp').isChecked(), true);
  await reopened.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});
