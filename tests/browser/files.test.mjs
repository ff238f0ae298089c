// Browser tier: "My model" reads a config.json and a GGUF header in the page; hostile strings in
// them are shown as text, never run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figure, openCalculator, browserSuite } from './harness.mjs';
import { fileBytes, ggufFile, GGML } from './model-files.mjs';

const suite = browserSuite();

// A minimal GGUF v3 model: llama metadata and two tensors. token_embd 256 x 1000 Q8_0 = 272,000
// bytes; output_norm 256 F32 = 1,024 bytes: 273,024 bytes of tensor data.
function tinyGguf(name) {
  return fileBytes(ggufFile([['general.architecture', 'str', 'llama'], ['general.name', 'str', name],
    ['general.file_type', 'u32', 7],  // Q8_0
    ['llama.block_count', 'u32', 2], ['llama.embedding_length', 'u32', 256],
    ['llama.feed_forward_length', 'u32', 512], ['llama.attention.head_count', 'u32', 4],
    ['llama.attention.head_count_kv', 'u32', 2], ['llama.context_length', 'u32', 4096],
    ['llama.vocab_size', 'u32', 1000]],
  [{ name: 'token_embd.weight', shape: [256, 1000], type: GGML.Q8_0 },
    { name: 'output_norm.weight', shape: [256], type: GGML.F32 }]));
}

test('a dropped config.json becomes the model; its strings stay text', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  const config = {
    model_type: 'llama', hidden_size: 4096, intermediate_size: 14336, num_hidden_layers: 32,
    num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 128256,
    max_position_embeddings: 131072, '<img src=x onerror=window.__pwned=1>': 1,
  };
  await page.locator('llm-calc #f-file').setInputFiles({
    name: '<script>window.__pwned=1</script>.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(config)),
  });
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('#file-status').textContent.includes('config.json'));
  // Same shapes as Llama 3.1 8B: 8,030,261,248 parameters (hand count in tests/core).
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('[data-testid="params-total"] dd').textContent.startsWith('8,030,261,248'));
  const status = await page.locator('llm-calc #file-status').textContent();
  assert.match(status, /<script>window.__pwned=1<\/script>\.json/);  // shown literally
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('llm-calc script, llm-calc img').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a config the core refuses shows the reason and no figures of an earlier setting', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  // DeepSeek V4.1's published nesting (copy at sfxnz/TensorFold tests/fixtures/deepseek_v41 @b044d500).
  const config = {
    architectures: ['DeepseekV41ForCausalLM'], model_type: 'deepseek_v41',
    text_config: { model_type: 'deepseek_v41_text', vocab_size: 129280, hidden_size: 5120, num_hidden_layers: 40,
                   num_attention_heads: 64, num_key_value_heads: 1, head_dim: 512, moe_intermediate_size: 2304,
                   n_routed_experts: 384, num_experts_per_tok: 6 },
  };
  await page.locator('llm-calc #f-file').setInputFiles({
    name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(config)),
  });
  const alert = page.locator('llm-calc p.error[role="alert"]');
  await alert.waitFor();
  assert.match(await alert.textContent(), /DeepSeek V4\.1 \(deepseek_v41\) is not modelled yet/);
  // The Llama 3.1 8B figures shown before the drop are not left under the error.
  assert.equal(await page.locator('llm-calc section.summary').isVisible(), false);
  assert.equal(await page.locator('llm-calc section.results').isVisible(), false);
  assert.equal(await page.locator('llm-calc [data-testid="kv"]').isVisible(), false);
  // A catalog model brings the answer back.
  await page.locator('llm-calc #f-model').selectOption('qwen3-8b');
  await page.locator('llm-calc section.results [data-testid="kv"]').waitFor();
  assert.equal(await alert.isVisible(), false);
  assert.equal(await page.locator('llm-calc section.summary').isVisible(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a GGUF header gives the exact tensor bytes; a hostile name is inert', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  await page.locator('llm-calc #f-file').setInputFiles({
    name: 'tiny.gguf', mimeType: 'application/octet-stream',
    buffer: tinyGguf('<img src=x onerror="window.__pwned=1">'),
  });
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('#file-status').textContent.includes('273024 bytes'));
  assert.match(await page.locator('llm-calc #file-status').textContent(), /GGUF Q8_0: 2 tensors/);
  // The estimate uses the file's exact tensor bytes: 273,024 B = 0.27 MB.
  assert.match(await figure(page, 'weights'), /0\.00 GiB · 0\.00 GB/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a broken GGUF is reported in words, not as a crash', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  const bad = tinyGguf('x');
  bad.write('GGUX', 0);
  await page.locator('llm-calc #f-file').setInputFiles({ name: 'bad.gguf', mimeType: 'application/octet-stream', buffer: bad });
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('#file-status').textContent.includes('not a GGUF file'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the splits of one GGUF model are read together and their tensor bytes summed', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  // Two copies of the tiny file stand for two splits (split.* keys absent: counted as given).
  await page.locator('llm-calc #f-file').setInputFiles([
    { name: 'm-00001-of-00002.gguf', mimeType: 'application/octet-stream', buffer: tinyGguf('a') },
    { name: 'm-00002-of-00002.gguf', mimeType: 'application/octet-stream', buffer: tinyGguf('a') },
  ]);
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('#file-status').textContent.includes('2 splits, 546048 bytes'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a loaded model is named in the menu; its link says it cannot carry the file; no clipboard is said', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  await page.locator('llm-calc #f-file').setInputFiles({
    name: 'tiny.gguf', mimeType: 'application/octet-stream', buffer: tinyGguf('Tiny Llama Test'),
  });
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('#file-status').textContent.includes('273024 bytes'));
  // The menu names the GGUF's own general.name while it is the model estimated.
  await page.waitForFunction(() => {
    const select = document.querySelector('llm-calc').shadowRoot.querySelector('#f-model');
    return select.options[select.selectedIndex].textContent === 'My model: Tiny Llama Test';
  });
  // This page is served over http on 127.0.0.1, where Chromium grants no clipboard without a
  // permission: the page says so and shows the link instead of claiming it copied.
  await page.locator('llm-calc button.copy').first().click();
  const status = page.locator('llm-calc header .status');
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot.querySelector('header .status').textContent !== '');
  const said = await status.textContent();
  assert.match(said, /cannot carry your file|copy it by hand: http:\/\/127\.0\.0\.1/);
  // Picking a catalog model puts the menu back.
  await page.locator('llm-calc #f-model').selectOption('qwen3-8b');
  assert.equal(await page.locator('llm-calc #f-model option:checked').textContent(), 'Qwen3 8B');
  // In Spanish: the menu's name and what the copy button says.
  const spanish = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&lang=es`);
  await spanish.page.locator('llm-calc #f-file').setInputFiles({
    name: 'tiny.gguf', mimeType: 'application/octet-stream', buffer: tinyGguf('Tiny Llama Test'),
  });
  await spanish.page.waitForFunction(() => {
    const select = document.querySelector('llm-calc').shadowRoot.querySelector('#f-model');
    return select.options[select.selectedIndex].textContent === 'Mi modelo: Tiny Llama Test';
  });
  await spanish.page.locator('llm-calc button.copy').first().click();
  await spanish.page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot.querySelector('header .status').textContent !== '');
  assert.match(await spanish.page.locator('llm-calc header .status').textContent(),
               /no puede llevar tu archivo|cópialo a mano: http:\/\/127\.0\.0\.1/);
  assert.deepEqual(spanish.errors, []);
  await spanish.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});
