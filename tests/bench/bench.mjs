// `make bench`: the calculator's own speed and size. Prints wasm timings under node, Chromium
// input-to-DOM latency and cold load, and dist/ sizes, each with its target (issue #12).
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launch, openCalculator, openPage } from '../browser/harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, '..', '..', 'dist');
const require = createRequire(import.meta.url);
const core = await require(join(dist, 'llmcalc_core.js'))();

function time(label, runs, fn) {
  fn();  // warm-up (JIT, caches)
  const samples = [];
  for (let i = 0; i < runs; ++i) {
    const t = performance.now();
    fn(i);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { label, p50: samples[Math.floor(runs / 2)], p95: samples[Math.floor(runs * 0.95)] };
}

const rows = [];
const report = (label, value, target) => rows.push({ label, value, target });

const est = time('estimate', 200, (i) => core.estimate(JSON.stringify({ model: 'llama-3.1-8b', context_tokens: 8192 + (i || 0) })));
report('wasm estimate (Llama 3.1 8B), ms p50', est.p50.toFixed(3), '');
report('wasm estimates per second', Math.round(1000 / est.p50), '');

const catalog = JSON.parse(core.catalog()).result;
const formats = ['Q8_0', 'Q6_K', 'Q4_K_M', 'IQ3_XXS'];
const contexts = [8192, 32768, 131072];
const sweep = [4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576];
let calls = 0;
const recompute = time('full recompute', 20, (i) => {
  const base = { model: 'llama-3.1-8b', hardware: 'rtx-4090', context_tokens: 16384 + (i || 0) };
  calls = 0;
  core.estimate(JSON.stringify(base)); ++calls;
  for (const w of formats) for (const c of contexts) { core.estimate(JSON.stringify({ ...base, weights: w, context_tokens: c })); ++calls; }
  for (const d of catalog.devices) { core.estimate(JSON.stringify({ ...base, hardware: d.id })); ++calls; }
  for (const c of sweep) { core.estimate(JSON.stringify({ ...base, context_tokens: c })); ++calls; }
});
report(`wasm full recompute as ${calls} separate estimate calls (main + 4x3 matrix + ${catalog.devices.length}-device leaderboard + 9-point sweep), ms p50`,
       recompute.p50.toFixed(1), '');
// What the page does on an input change: one estimate and one explore call (the engine's whole
// format ladder x 4 contexts, the 9-point sweep, every catalog device and the recommendations).
const pageRecompute = time('page recompute', 50, (i) => {
  const request = JSON.stringify({ model: 'llama-3.1-8b', hardware: 'rtx-4090', context_tokens: 16384 + (i || 0) });
  core.estimate(request);
  core.explore(request);
});
report('wasm full recompute as the page runs it (estimate + explore), ms p50 / p95',
       `${pageRecompute.p50.toFixed(2)} / ${pageRecompute.p95.toFixed(2)}`, '<= 2');

const rankCold = performance.now();
core.rank(JSON.stringify({ hardware: 'm4-max-64gb' }));
report('wasm rank, whole catalog, first call (builds caches), ms', (performance.now() - rankCold).toFixed(1), '');
const rank = time('rank', 20, (i) => core.rank(JSON.stringify({ hardware: 'rtx-4090', context_tokens: 4096 + (i || 0) })));
report(`wasm rank, whole catalog (${catalog.models.length} models), ms p50`, rank.p50.toFixed(1), '< 50');

// A GGUF header with 1,000 Q4_K tensors (4096 x 4096) and 32 metadata keys.
function syntheticGguf(tensors) {
  const parts = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const str = (s) => { const b = Buffer.from(s); u64(b.length); parts.push(b); };
  parts.push(Buffer.from('GGUF')); u32(3); u64(tensors); u64(32);
  for (let i = 0; i < 32; ++i) { str('meta.key.' + i); u32(4); u32(i); }
  for (let i = 0; i < tensors; ++i) {
    str(`blk.${Math.floor(i / 9)}.tensor_${i}.weight`); u32(2); u64(4096); u64(4096); u32(12); u64(i * 9437184);
  }
  return new Uint8Array(Buffer.concat(parts));
}
const gguf = syntheticGguf(1000);
const header = time('gguf', 20, () => core.read_gguf_header(gguf, 0));
report('wasm GGUF header read, 1,000 tensors, ms p50', header.p50.toFixed(2), '<= 20');

// Chromium: 200 slider moves, input event to updated DOM; cold load of the single file.
const browser = await launch();
// Cold load: navigation start to the first figures and to the full render (the matrix and the
// memory and speed charts, which follow the figures; the device table is built only when its
// closed section is opened), timed inside the page: a poll
// records performance.now(), whose origin is the navigation start. Five fresh contexts.
const figuresMs = [];
const fullMs = [];
for (let run = 0; run < 5; ++run) {
  const fresh = await openPage(browser);
  await fresh.page.addInitScript(() => {
    const poll = () => {
      const root = document.querySelector('llm-calc')?.shadowRoot;
      const kv = root?.querySelector('[data-testid="kv"] dd');
      if (kv && kv.textContent.trim() && window.figuresMs === undefined) window.figuresMs = performance.now();
      if (root?.querySelector('#matrix-table tbody tr') && root.querySelector('#speed-chart path.decode')) {
        window.fullMs = performance.now();
      } else {
        setTimeout(poll, 1);
      }
    };
    poll();
  });
  await fresh.page.goto(pathToFileURL(join(dist, 'llm-calculator.html')).href);
  await fresh.page.waitForFunction(() => window.fullMs !== undefined);
  figuresMs.push(await fresh.page.evaluate(() => window.figuresMs));
  fullMs.push(await fresh.page.evaluate(() => window.fullMs));
  await fresh.context.close();
}
const medianAndWorst = (values) => {
  values.sort((a, b) => a - b);
  return `${values[2].toFixed(0)} / ${values[4].toFixed(0)}`;
};
report('Chromium cold load from file://, navigation to first figures, ms, median / worst of 5',
       medianAndWorst(figuresMs), '');
report('Chromium cold load from file://, navigation to full render (matrix and charts), ms, median / worst of 5',
       medianAndWorst(fullMs), '<= 500');
const { page } = await openCalculator(browser, pathToFileURL(join(dist, 'llm-calculator.html')).href);
const latencies = await page.evaluate(async () => {
  const root = document.querySelector('llm-calc').shadowRoot;
  const slider = root.querySelector('#f-ctx');
  const kv = root.querySelector('[data-testid="kv"] dd');
  const out = [];
  for (let i = 0; i < 200; ++i) {
    const before = kv.textContent;
    slider.value = String(i % 2 ? Number(slider.max) - 2 : 2);
    const t = performance.now();
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    // The moment the KV figure's text changes (a MutationObserver runs right after the DOM update).
    const changed = await new Promise((done) => {
      const observer = new MutationObserver(() => {
        if (root.querySelector('[data-testid="kv"] dd').textContent !== before) {
          observer.disconnect();
          done(performance.now());
        }
      });
      observer.observe(root, { subtree: true, childList: true, characterData: true });
    });
    out.push(changed - t);
  }
  return out.sort((a, b) => a - b);
});
report('Chromium input-to-DOM over 200 slider moves, ms p50', latencies[100].toFixed(1), '');
report('Chromium input-to-DOM over 200 slider moves, ms p95', latencies[190].toFixed(1), '<= 16');
await browser.close();

for (const name of readdirSync(dist).sort()) {
  const bytes = readFileSync(join(dist, name));
  report(`dist/${name}: raw / gzip KB`, `${(statSync(join(dist, name)).size / 1024).toFixed(0)} / ${(gzipSync(bytes).length / 1024).toFixed(0)}`,
         name === 'llm-calculator.html' ? '<= 400 gzip' : '');
}

const width = Math.max(...rows.map((r) => r.label.length));
console.log(`${'measurement'.padEnd(width)}  ${'value'.padStart(12)}  target`);
for (const r of rows) console.log(`${r.label.padEnd(width)}  ${String(r.value).padStart(12)}  ${r.target}`);
