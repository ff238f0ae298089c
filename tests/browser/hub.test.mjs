// Browser tier: a Hugging Face model by its name (issue #19). The page asks https://huggingface.co
// for a repository only when the user presses Fetch; a local Hub-shaped server answers (see
// hub-server.mjs). A config-only repository, a safetensors one and a split GGUF give the same
// figures as the matching catalog entry, and the link reopens the fetched model.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { browserSuite, distDir, figure, openCalculator, openPage, waitForCalculator } from './harness.mjs';
import { createHubServer, routeHub } from './hub-server.mjs';
import { ggufFile, llama32OneBGgufMetadata, llama32OneBGgufTensors, llama32OneBTensors,
  safetensorsFile } from './model-files.mjs';

const suite = browserSuite();
const dataDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'models');
const catalogConfig = (id) => JSON.parse(readFileSync(join(dataDir, id + '.json'), 'utf8')).config;
const jsonFile = (value) => {
  const head = Buffer.from(JSON.stringify(value));
  return { head, size: head.length };
};

// The Llama 3.2 1B Q8_0 GGUF as gguf-split cuts it in two: the model's metadata and the first
// eight layers in the first file, the rest in the second (which carries only the split keys).
function splitGguf() {
  const tensors = llama32OneBGgufTensors();
  const cut = tensors.findIndex((t) => t.name.startsWith('blk.8.'));
  const metadata = llama32OneBGgufMetadata('Llama 3.2 1B Instruct');
  return [
    ggufFile(metadata.concat([['split.no', 'u16', 0], ['split.count', 'u16', 2]]), tensors.slice(0, cut)),
    ggufFile([['split.no', 'u16', 1], ['split.count', 'u16', 2]], tensors.slice(cut)),
  ];
}

const [split1, split2] = splitGguf();
const REPOS = {
  'Qwen/Qwen3-8B': { files: { 'config.json': jsonFile(catalogConfig('qwen3-8b')) } },
  'meta-llama/Llama-3.2-1B': { files: {
    'config.json': jsonFile(catalogConfig('llama-3.2-1b')),
    'model.safetensors': safetensorsFile(llama32OneBTensors()),
  } },
  'unsloth/Llama-3.2-1B-Instruct-GGUF': { files: {
    'Q8_0/Llama-3.2-1B-Instruct-Q8_0-00001-of-00002.gguf': split1,
    'Q8_0/Llama-3.2-1B-Instruct-Q8_0-00002-of-00002.gguf': split2,
    'Llama-3.2-1B-Instruct-Q4_K_M.gguf': ggufFile(llama32OneBGgufMetadata('other'), []),
    'mmproj-F16.gguf': ggufFile([['general.architecture', 'str', 'clip']], []),
    'README.md': jsonFile('readme'),
  } },
  'meta-llama/Llama-3.1-405B': { gated: true, files: { 'config.json': jsonFile({}) } },
  // A ModelOpt export: config.json without quantization, hf_quant_config.json beside it (the
  // schema of nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4's file, search-index file id 69102596464).
  'nvidia/Llama-3.1-8B-Instruct-NVFP4': { files: {
    'config.json': jsonFile(catalogConfig('llama-3.1-8b')),
    'hf_quant_config.json': jsonFile({ producer: { name: 'modelopt', version: '0.29.0' },
      quantization: { quant_algo: 'NVFP4', kv_cache_quant_algo: 'FP8', group_size: 16, exclude_modules: ['lm_head'] } }),
  } },
};

const hub = createHubServer(REPOS);
let hubOrigin;
before(async () => {
  await new Promise((done) => hub.server.listen(0, '127.0.0.1', done));
  hubOrigin = `http://127.0.0.1:${hub.server.address().port}`;
});
after(() => hub.server.close());

const FIGURES = ['params-total', 'weights', 'kv', 'total', 'decode', 'ttft'];
async function figures(page) {
  const out = {};
  for (const id of FIGURES) out[id] = await figure(page, id);
  out.verdict = (await page.locator('llm-calc [data-testid="verdict"]').textContent()).trim();
  return out;
}

async function catalogFigures(hash) {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html#v=1&${hash}`);
  const out = await figures(page);
  assert.deepEqual(errors, []);
  await context.close();
  return out;
}

// A page routed to the local Hub; resolves once the calculator shows its first figures.
async function openRouted(url) {
  const opened = await openPage(suite.browser);
  await routeHub(opened.context, hubOrigin);
  await opened.page.goto(url);
  await waitForCalculator(opened.page);
  return opened;
}

const hubStatus = (page) => page.locator('llm-calc #hub-status').textContent();
async function fetchRepo(page, text, expected) {
  await page.locator('llm-calc #f-hub').fill(text);
  await page.locator('llm-calc #hub-fetch').click();
  // Done when the button is enabled again (progress lines such as "Reading config.json of ..."
  // can contain the expected words before the read has finished).
  await page.waitForFunction((wanted) => {
    const root = document.querySelector('llm-calc').shadowRoot;
    return !root.querySelector('#hub-fetch').disabled && root.querySelector('#hub-status').textContent.includes(wanted);
  }, expected);
  // The estimate follows in the same task as the status; one more frame for the render.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
}

test('a config-only repository gives the catalog entry\'s figures, fetched only on the click', async () => {
  const expected = await catalogFigures('model=qwen3-8b');
  const { context, page, errors } = await openRouted(`${suite.base}/index.html`);
  const before = hub.seen.length;
  await page.locator('llm-calc #f-hub').fill('https://huggingface.co/Qwen/Qwen3-8B/tree/main');
  assert.equal(hub.seen.length, before, 'typing sends nothing');
  await fetchRepo(page, 'https://huggingface.co/Qwen/Qwen3-8B/tree/main', 'config.json of Qwen/Qwen3-8B');
  assert.deepEqual(await figures(page), expected);
  assert.deepEqual(hub.seen.slice(before), ['GET /api/models/Qwen/Qwen3-8B', 'GET /Qwen/Qwen3-8B/resolve/main/config.json']);
  const commands = await page.locator('llm-calc .commands').textContent();
  assert.match(commands, /vllm serve Qwen\/Qwen3-8B /);
  assert.match(page.url(), /[#&]hf=Qwen%2FQwen3-8B(&|$)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a ModelOpt checkpoint: hf_quant_config.json gives NVFP4 weights, vLLM its declared cache, and a 16-bit cache named its flag', async () => {
  const { context, page, errors } = await openRouted(`${suite.base}/index.html`);
  await fetchRepo(page, 'nvidia/Llama-3.1-8B-Instruct-NVFP4', 'config.json of nvidia/Llama-3.1-8B-Instruct-NVFP4');
  assert.equal(await page.locator('llm-calc #f-weights').inputValue(), 'NVFP4');
  // The KV menu's "auto" is each engine's default: vLLM's takes the checkpoint's cache unflagged.
  assert.equal(await page.locator('llm-calc #f-kv').inputValue(), 'auto');
  assert.equal(await page.locator('llm-calc #f-kv option[value="auto"]').textContent(), 'auto (f16)');  // llama.cpp's
  const vllmAuto = await page.locator('llm-calc .command[data-engine="vllm"]').textContent();
  assert.match(vllmAuto, /vllm serve nvidia\/Llama-3\.1-8B-Instruct-NVFP4 /);
  assert.doesNotMatch(vllmAuto, /--kv-cache-dtype/);
  // Estimated for vLLM, "auto" is the checkpoint's FP8 cache (hf_quant_config's kv_cache_quant_algo).
  await page.locator('llm-calc #f-engine').selectOption('vllm');
  await page.waitForFunction(() => document.querySelector('llm-calc').shadowRoot
    .querySelector('#f-kv option[value="auto"]').textContent === 'auto (fp8)');
  await page.locator('llm-calc #f-kv').selectOption('f16');
  await page.waitForFunction(() => /--kv-cache-dtype bfloat16/.test(document.querySelector('llm-calc').shadowRoot
    .querySelector('.command[data-engine="vllm"]').textContent));
  const vllm = await page.locator('llm-calc .command[data-engine="vllm"]').textContent();
  assert.match(vllm, /the KV cache type the checkpoint declares/);
  assert.doesNotMatch(vllm, /--quantization/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a safetensors repository: its header is read by range, the figures are the catalog\'s', async () => {
  const expected = await catalogFigures('model=llama-3.2-1b');
  const { context, page, errors } = await openRouted(`${suite.base}/index.html`);
  // 128,256 x 2,048 embedding + 16 x (2 x 2,048 norms + 2,048^2 x 2 + 512 x 2,048 x 2 + 8,192 x
  // 2,048 x 3) + 2,048 = 1,235,814,400 parameters (the Hub's total for Llama 3.2 1B), BF16: x 2.
  await fetchRepo(page, 'meta-llama/Llama-3.2-1B', 'safetensors: 1235814400 parameters, 2471628800 bytes in 1 files');
  assert.deepEqual(await figures(page), expected);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a split GGUF repository: both headers read through the storage redirect; the link reopens it', async () => {
  const expected = await catalogFigures('model=llama-3.2-1b&weights=Q8_0');
  const { context, page, errors } = await openRouted(`${suite.base}/index.html`);
  // Tensor data: embedding 2,048 / 32 x 34 x 128,256 = 279,085,056 + rope_freqs 128 + 16 layers x
  // (2 norms 16,384 + q, o 2 x 4,456,448 + k, v 2 x 1,114,112 + gate, up, down 3 x 17,825,792 =
  // 64,634,880) + output_norm 8,192 = 1,313,251,456 bytes.
  await fetchRepo(page, 'unsloth/Llama-3.2-1B-Instruct-GGUF:Q8_0', 'GGUF Q8_0: 2 splits, 1313251456 bytes');
  assert.deepEqual(await figures(page), expected);
  // The file menu: the split model and the single-file one; the vision projector left out.
  assert.equal(await page.locator('llm-calc #f-hub-file option').count(), 2);
  const commands = await page.locator('llm-calc .commands').textContent();
  assert.match(commands, /llama-server -hf unsloth\/Llama-3\.2-1B-Instruct-GGUF:Q8_0/);
  assert.match(commands, /ollama run hf\.co\/unsloth\/Llama-3\.2-1B-Instruct-GGUF:Q8_0/);
  const link = page.url();
  assert.match(link, /hf_file=Q8_0%2FLlama-3\.2-1B-Instruct-Q8_0-00001-of-00002\.gguf/);
  assert.deepEqual(errors, []);
  await context.close();

  // The link names the repository and file; opening it fetches nothing until Fetch is pressed.
  const reopened = await openRouted(link);
  const before = hub.seen.length;
  assert.equal(await reopened.page.locator('llm-calc #f-hub').inputValue(), 'unsloth/Llama-3.2-1B-Instruct-GGUF');
  assert.match(await hubStatus(reopened.page), /press Fetch/);
  assert.equal(hub.seen.length, before);
  await reopened.page.locator('llm-calc #hub-fetch').click();
  await reopened.page.waitForFunction(() => {
    const root = document.querySelector('llm-calc').shadowRoot;
    return !root.querySelector('#hub-fetch').disabled && root.querySelector('#hub-status').textContent.includes('2 splits');
  });
  await reopened.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
  assert.deepEqual(await figures(reopened.page), expected);
  assert.deepEqual(reopened.errors, []);
  await reopened.context.close();
});

test('gated, unknown, offline and malformed names get a message, never a crash', async () => {
  const { context, page, errors } = await openRouted(`${suite.base}/index.html`);
  await fetchRepo(page, 'meta-llama/Llama-3.1-405B', 'gated, private or does not exist');
  await fetchRepo(page, 'nobody/nothing-here', 'gated, private or does not exist');
  // The network gives way: the request fails as it would offline.
  await context.route((url) => url.pathname.startsWith('/api/models/offline/'), (route) => route.abort('internetdisconnected'));
  await fetchRepo(page, 'offline/model', 'could not be reached');
  const before = hub.seen.length;
  await fetchRepo(page, '<img src=x onerror="window.__pwned=1">/x', 'Type a repository id');
  assert.equal(hub.seen.length, before, 'nothing is requested for a malformed name');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  // A failed fetch leaves the catalog model in place.
  assert.match(await figure(page, 'params-total'), /^8,030,261,248/);
  // Chromium logs failed fetches (401, aborted) as console errors; nothing else may appear.
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|net::ERR_INTERNET_DISCONNECTED/.test(e)), []);
  await context.close();
});

test('the CSP lets the page reach the Hub and its storage hosts, and nothing else', async () => {
  const { context, page, errors } = await openRouted(`${suite.base}/index.html`);
  await context.route('https://example.com/**', (route) => route.fulfill({ body: 'x', headers: { 'access-control-allow-origin': '*' } }));
  const outcome = (address) => page.evaluate((url) => fetch(url, { headers: { Range: 'bytes=0-7' } })
    .then((r) => 'status ' + r.status, () => 'blocked'), address);
  const storage = 'https://cas-bridge.xethub.hf.co/xet-bridge-us/meta-llama/Llama-3.2-1B/model.safetensors';
  assert.equal(await outcome(storage), 'status 206');
  assert.equal(await outcome('https://huggingface.co/api/models/Qwen/Qwen3-8B'), 'status 200');
  assert.equal(await outcome('https://example.com/leak'), 'blocked');
  assert.ok(errors.some((e) => /Content Security Policy/.test(e) && e.includes('example.com')), 'a CSP violation');
  assert.deepEqual(errors.filter((e) => !/Content Security Policy|Failed to fetch/.test(e)), []);
  await context.close();
});

test('the offline single file fetches from the Hub too (its CSP allows huggingface.co)', async () => {
  const url = pathToFileURL(join(distDir, 'llm-calculator.html')).href;
  const { context, page, errors } = await openRouted(url);
  await fetchRepo(page, 'Qwen/Qwen3-8B', 'config.json of Qwen/Qwen3-8B');
  assert.match(await figure(page, 'params-total'), /^8,190,735,360/);
  assert.deepEqual(errors, []);
  await context.close();
});
