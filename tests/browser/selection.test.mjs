// Browser tier, issue #21 item 4: the commands follow the selection — the selected engine's
// command first, and an engine that cannot run the selection says why, in English and Spanish.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCalculator, browserSuite } from './harness.mjs';

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

test('vLLM on a Mac, in Spanish: the reason is labelled in Spanish', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=qwen3-8b&engine=vllm&weights=BF16&hw=m4-max-128gb&lang=es`);
  const first = page.locator('llm-calc .commands .command').first();
  assert.equal(await first.getAttribute('data-engine'), 'vllm');
  assert.match(await first.locator('[data-testid="cannot-run"]').textContent(), /^No puede ejecutar esta selección: vLLM has no Metal backend/);
  assert.equal(await page.locator('llm-calc [data-engine="mlx"] [data-testid="cannot-run"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
