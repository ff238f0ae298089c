// Browser tier, issue #21 item 4: the commands follow the selection — the selected engine's
// command first, and an engine that cannot run the selection says why, in English and Spanish.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir, openCalculator, openPage, browserSuite, waitForCalculator } from './harness.mjs';

const suite = browserSuite();

test('MLX on an NVIDIA card: its command comes first and says it needs Apple silicon', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=qwen3-8b&engine=mlx&weights=MLX-4bit&hw=rtx-4090`);
  const first = page.locator('llm-calc .commands .command').first();
  assert.equal(await first.getAttribute('data-engine'), 'mlx');
  assert.match(await first.locator('[data-testid="cannot-run"]').textContent(), /Cannot run this selection: mlx-lm runs on Apple silicon/);
  // The core's warning says the same above the figures.
  assert.match(await page.locator('llm-calc [data-testid="warnings"]').textContent(), /mlx-lm runs on Apple silicon/);
  // llama.cpp and vLLM run on this card but not MLX weights; Ollama neither.
  assert.match(await page.locator('llm-calc [data-engine="llama.cpp"] [data-testid="cannot-run"]').textContent(), /loads GGUF files; MLX-4bit is a checkpoint format/);
  assert.match(await page.locator('llm-calc [data-engine="vllm"] [data-testid="cannot-run"]').textContent(), /not MLX-4bit weights/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('vLLM on a Mac, in Spanish: the reason is in Spanish', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=qwen3-8b&engine=vllm&weights=BF16&hw=m4-max-128gb&lang=es`);
  const first = page.locator('llm-calc .commands .command').first();
  assert.equal(await first.getAttribute('data-engine'), 'vllm');
  assert.match(await first.locator('[data-testid="cannot-run"]').textContent(), /^No puede ejecutar esta selección: vLLM no tiene backend de Metal: en un Mac usa llama.cpp, Ollama o MLX\./);
  // The core's warning above the figures too.
  assert.match(await page.locator('llm-calc [data-testid="warnings"]').textContent(),
               /vLLM no tiene backend de Metal.+Las cifras siguen igualmente las reglas del motor\./);
  assert.equal(await page.locator('llm-calc [data-engine="mlx"] [data-testid="cannot-run"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('figures that said less than they seemed (issue #21 item 10)', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090&n=2&batch=16&ctx=8192`);
  // The time to first token of the same 512-token prompt at an 8K and (below, one sequence so it
  // fits) a 128K window.
  const ttft8k = await page.locator('llm-calc [data-testid="ttft"] dd').textContent();
  // Two devices: the usable figure says it is the sum, and what the smaller one offers.
  assert.match(await page.locator('llm-calc [data-testid="usable"] dt').textContent(), /Usable on all devices/);
  assert.match(await page.locator('llm-calc [data-testid="usable"] dd').textContent(), /\(2 devices, .+ GiB on the smallest\)/);
  // 16 sequences: their total as well as each one's.
  assert.match(await page.locator('llm-calc [data-testid="decode-total"] dd').textContent(), /tok\/s \(16 sequences\)$/);
  // The cost per million tokens says for what.
  assert.match(await page.locator('llm-calc [data-testid="cost-own"] dd').textContent(), /for one sequence · .+ for 8 at once$/);
  // The chart reaches the break-even it names.
  const breakEven = parseFloat(await page.locator('llm-calc [data-testid="cost-break-even"] dd').textContent());
  const ticks = await page.locator('llm-calc #cost-chart .axis').allTextContents();
  const lastMonth = Math.max(...ticks.filter((text) => / mo$/.test(text)).map((text) => parseFloat(text)));
  assert.ok(lastMonth >= 36);
  if (!Number.isNaN(breakEven)) assert.ok(lastMonth >= breakEven, `break-even ${breakEven} beyond the chart's ${lastMonth} months`);
  await page.goto(`${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090&n=2&batch=1&ctx=131072`);
  await page.reload();
  await page.locator('llm-calc [data-testid="ttft"] dd').waitFor();
  assert.equal(await page.locator('llm-calc [data-testid="ttft"] dd').textContent(), ttft8k);
  // The same figures say the same in Spanish.
  await page.goto(`${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090&n=2&batch=16&ctx=8192&lang=es`);
  await page.reload();
  await waitForCalculator(page);
  assert.match(await page.locator('llm-calc [data-testid="usable"] dt').textContent(), /Utilizable en todos los dispositivos/);
  assert.match(await page.locator('llm-calc [data-testid="usable"] dd').textContent(), /\(2 dispositivos, .+ GiB en el más pequeño\)/);
  assert.match(await page.locator('llm-calc [data-testid="decode-total"] dd').textContent(), /tok\/s \(16 secuencias\)$/);
  assert.match(await page.locator('llm-calc [data-testid="cost-own"] dd').textContent(), /para una secuencia · .+ para 8 a la vez$/);
  // Under Ollama a Qwen3.6 model is served one request at a time (rule ollama_parallel_one): no
  // total for 16 sequences, and the warning says why.
  await page.goto(`${suite.base}/index.html#v=1&model=qwen3.6-27b&engine=ollama&hw=rtx-4090&n=2&batch=16&ctx=8192`);
  await page.reload();
  await waitForCalculator(page);
  assert.match(await page.locator('llm-calc [data-testid="warnings"]').textContent(), /one request at a time/);
  assert.equal(await page.locator('llm-calc [data-testid="decode-total"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('fine-tuning settings change the fine-tuning memory and live in the link (issue #21 item 13)', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&model=llama-3.1-8b`);
  const full = async () => parseFloat(await page.locator('llm-calc [data-testid="ft-full"] dd').textContent());
  const adamw = await full();
  await page.locator('llm-calc #finetune-settings summary').click();
  await page.locator('llm-calc #f-ft_opt').selectOption('adamw_8bit');
  await page.waitForFunction(() => location.hash.includes('ft_opt=adamw_8bit'));
  // bf16 AdamW keeps two 2-byte states per parameter, the 8-bit one two 1-byte states: 2 B x
  // 8,030,261,248 parameters = 16,060,522,496 B = 14.96 GiB less.
  assert.ok(Math.abs(adamw - (await full()) - 14.96) < 0.02, `${adamw} -> ${await full()}`);
  await page.locator('llm-calc #f-ft_rank').fill('64');
  await page.locator('llm-calc #f-ft_rank').dispatchEvent('change');
  await page.waitForFunction(() => location.hash.includes('ft_rank=64'));
  // A refused value keeps the last one and says why.
  await page.locator('llm-calc #f-ft_seq').fill('0');
  await page.locator('llm-calc #f-ft_seq').dispatchEvent('change');
  assert.match(await page.locator('llm-calc #f-ft_seq-error').textContent(), /whole number from 1/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('export: a Markdown summary to the clipboard and the result as a JSON file (issue #21 item 13)', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.base });
  await page.goto(`${suite.base}/index.html#v=1&model=qwen3-8b&ctx=16384`);
  await waitForCalculator(page);
  await page.locator('llm-calc #copy-summary').click();
  await page.locator('llm-calc .status').filter({ hasText: 'Summary copied' }).waitFor();
  const text = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(text, /^## Qwen3 8B · Q4_K_M · NVIDIA GeForce RTX 4090 · llama\.cpp b11541\n/);
  // Qwen3-8B: 36 layers x 8 KV heads x (128 + 128) x 2 B = 147,456 B per token; x 16,384 = 2.25 GiB.
  assert.match(text, /KV cache 2\.25 GiB/);
  assert.match(text, /#v=1&model=qwen3-8b&ctx=16384/);
  assert.match(text, /```sh\nllama-server -hf .+ -c 16384 --port 8080\n```/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('llm-calc #save-json').click()]);
  assert.equal(download.suggestedFilename(), 'llmcalc-qwen3-8b.json');
  const saved = JSON.parse(await (await import('node:fs/promises')).readFile(await download.path(), 'utf8'));
  assert.equal(saved.request.context_tokens, 16384);
  assert.equal(saved.envelope.result.memory.kv_cache_bytes, 147456 * 16384);
  assert.deepEqual(errors, []);
  await context.close();
});

test('two configurations side by side (issue #21 item 13)', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&model=llama-3.1-8b&ctx=8192`);
  await page.locator('llm-calc #pin-button').click();
  await page.locator('llm-calc #f-weights').selectOption('Q8_0');
  await page.waitForFunction(() => location.hash.includes('weights=Q8_0'));
  await page.locator('llm-calc #pin-button').click();
  const rows = page.locator('llm-calc #compare-table tbody tr');
  assert.equal(await rows.count(), 2);
  assert.match(await rows.nth(0).locator('td').first().textContent(), /Llama 3\.1 8B · Q4_K_M · /);
  assert.match(await rows.nth(1).locator('td').first().textContent(), /Llama 3\.1 8B · Q8_0 · /);
  // Q8_0 holds more bytes than Q4_K_M and decodes slower on the same card.
  const decode = async (i) => parseFloat(await rows.nth(i).locator('td').nth(3).textContent());
  assert.ok((await decode(1)) < (await decode(0)));
  // Each row reopens its configuration.
  assert.match(await rows.nth(0).locator('a').getAttribute('href'), /^#v=1/);
  await rows.nth(0).locator('button').click();
  assert.equal(await rows.count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Spanish reaches the page title, the math and the landmarks (issue #21 item 11)', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&lang=es`);
  assert.equal(await page.title(), 'Calculadora de inferencia de LLM');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  assert.equal(await page.locator('llm-calc section.controls').getAttribute('aria-label'), 'Ajustes');
  const math = await page.locator('llm-calc .math strong').allTextContents();
  assert.deepEqual(math, ['pesos: ', 'caché KV: ', 'búferes de cómputo: ', 'utilizable: ']);
  // The formulas and the command notes the core writes come in Spanish too (the page passes its
  // language in the request).
  const formulas = await page.locator('llm-calc .math li').allTextContents();
  assert.match(formulas[0], /^pesos: suma sobre los tensores de elementos/);
  assert.match(formulas[3], /^utilizable: memoria - reserva - --fit-target, por dispositivo/);
  assert.match(await page.locator('llm-calc [data-engine="mlx"]').textContent(),
               /mlx_lm.server dimensiona la caché KV por petición/);
  assert.equal(await page.locator('llm-calc details.advanced summary', { hasText: 'Capas en la RAM del sistema (llama.cpp)' }).count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('copy feedback beside the button; a widget copies embed code that reproduces its settings (issue #21 item 8)', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.base });
  await page.goto(`${suite.base}/embed.html`);
  await waitForCalculator(page);
  // A command's copy is confirmed next to its own button, not in the header.
  await page.locator('llm-calc [data-engine="vllm"] button.copy').click();
  await page.locator('llm-calc [data-engine="vllm"] [data-testid="copy-status"]').filter({ hasText: 'Command copied' }).waitFor();
  // And in Spanish.
  await page.goto(`${suite.base}/index.html#v=1&lang=es`);
  await waitForCalculator(page);
  await page.locator('llm-calc [data-engine="llama.cpp"] button.copy').click();
  await page.locator('llm-calc [data-engine="llama.cpp"] [data-testid="copy-status"]').filter({ hasText: 'Comando copiado' }).waitFor();
  await page.goto(`${suite.base}/embed.html`);
  await waitForCalculator(page);
  // The widget reads no address: its copy button gives the element with its settings.
  await page.locator('llm-calc #f-batch').fill('3');
  await page.locator('llm-calc #f-batch').dispatchEvent('change');
  await page.locator('llm-calc header button.copy').click();
  const markup = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(markup, /^<llm-calc .*model="qwen3-30b-a3b".*batch="3".*><\/llm-calc>$/);
  const kv = await page.locator('llm-calc [data-testid="kv"] dd').textContent();
  // Pasted into another page, it shows the same figures.
  const other = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>${markup}
    <script src="${suite.base}/llmcalc_core.js"></script><script src="${suite.base}/llm-calc.js"></script></body></html>`;
  await page.route(`${suite.base}/pasted.html`, (route) => route.fulfill({ contentType: 'text/html', body: other }));
  await page.goto(`${suite.base}/pasted.html`);
  await waitForCalculator(page);
  assert.equal(await page.locator('llm-calc #f-batch').inputValue(), '3');
  assert.equal(await page.locator('llm-calc [data-testid="kv"] dd').textContent(), kv);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a table saves as CSV the rows it shows (issue #21 item 13)', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&hw=rtx-4090`);
  await page.locator('llm-calc #rank-button').click();
  await page.locator('llm-calc #rank-table tbody tr').first().waitFor();
  await page.locator('llm-calc #rank-filter').fill('Qwen3 8B');
  await page.locator('llm-calc #rank-table:not([aria-busy])').waitFor();
  const shown = await page.locator('llm-calc #rank-table tbody tr').count();
  assert.ok(shown >= 1);
  const [download] = await Promise.all([page.waitForEvent('download'),
    page.locator('llm-calc [data-testid="rank-table-csv"]').click()]);
  assert.equal(download.suggestedFilename(), 'rank-table.csv');
  const text = await (await import('node:fs/promises')).readFile(await download.path(), 'utf8');
  const lines = text.trim().split('\r\n');
  assert.match(lines[0], /^"Model","Weight format","Verdict"/);
  assert.equal(lines.length, shown + 1);
  assert.match(lines[1], /Qwen3 8B/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a chart saves as a standalone SVG with its styles written in (issue #21 item 13)', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=rtx-4090`);
  await page.locator('llm-calc #memory-chart circle').first().waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'),
    page.locator('llm-calc [data-testid="memory-chart-svg"]').click()]);
  assert.equal(download.suggestedFilename(), 'memory-chart.svg');
  const text = await (await import('node:fs/promises')).readFile(await download.path(), 'utf8');
  assert.match(text, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  // The nine context points and the device's limit, each with its stroke or fill written in.
  assert.equal((text.match(/<circle /g) || []).length, 9);
  assert.match(text, /class="limit"[^>]*stroke="rgb\(/);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [where, url] of [['over http', () => `${suite.base}/index.html#v=1&lang=es`],
                            ['from file://', () => pathToFileURL(join(distDir, 'llm-calculator.html')).href + '#v=1&lang=es']]) {
  test(`${where}, in Spanish: a chart saves as a PNG twice its drawn size (issue #21 item 13)`, async () => {
    const { context, page, errors } = await openCalculator(suite.browser, url());
    await page.locator('llm-calc #speed-chart path.decode').waitFor();
    const button = page.locator('llm-calc [data-testid="speed-chart-png"]');
    assert.equal(await button.textContent(), 'Guardar PNG');
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    assert.equal(download.suggestedFilename(), 'speed-chart.png');
    const bytes = await (await import('node:fs/promises')).readFile(await download.path());
    // PNG signature, then the IHDR chunk: width and height as big-endian 32-bit integers.
    assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
    assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
    assert.equal(bytes.readUInt32BE(16), 1120);
    assert.equal(bytes.readUInt32BE(20), 440);
    // Not a blank canvas: the compressed image carries the drawing.
    assert.ok(bytes.length > 4000, `${bytes.length} bytes`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('devices people own are in the menu, and a printout shows the results without the controls (issue #21 item 13)', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1`);
  const devices = await page.locator('llm-calc #f-hw option').evaluateAll((options) => options.map((o) => o.value));
  for (const id of ['tesla-t4', 'tesla-v100-16gb', 'rtx-2080-ti', 'rtx-4060', 'arc-a770-16gb', 'arc-b580', 'rx-6800',
                    'rx-9070-xt', 'm1-16gb', 'm2-24gb', 'm3-24gb', 'm5-16gb', 'm5-pro-24gb', 'm5-max-36gb', 'm5-ultra-96gb']) {
    assert.ok(devices.includes(id), id);
  }
  // The 16-bit formats say which kind of file they are (a GGUF type or a checkpoint).
  const label = (format) => page.locator(`llm-calc #f-weights option[value="${format}"]`).textContent();
  assert.equal(await label('F16'), 'F16 (GGUF)');
  assert.equal(await label('FP16'), 'FP16 (safetensors)');
  assert.equal(await label('BF16'), 'BF16 (safetensors)');
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.locator('llm-calc section.controls').isVisible(), false);
  assert.equal(await page.locator('llm-calc [data-testid="kv"]').isVisible(), true);
  assert.equal(await page.locator('llm-calc button').first().isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();
});
