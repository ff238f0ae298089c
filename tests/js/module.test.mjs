// Module tier: the built dist/llmcalc_core.js (wasm) answers exactly as the native core does,
// and the binding surface behaves (version, catalog, bad input as data, never a throw).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadNodeCore } from '../../web/node-core.mjs';
import { pageListing } from '../../web/page-listing.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const modulePath = process.env.LLMCALC_CORE_JS || join(root, 'dist', 'llmcalc_core.js');
const nativePath = process.env.LLMCALC_NATIVE_ESTIMATE ||
  join(root, 'build', 'native', 'tests', 'js', 'llmcalc_native_estimate');
const core = await loadNodeCore(modulePath);

function nativeAnswers(lines) {
  const out = execFileSync(nativePath, { input: lines.join('\n') + '\n', maxBuffer: 64 << 20 });
  return out.toString('utf8').trim().split('\n').map((line) => JSON.parse(line));
}

// Floats printed by two compilers may differ in the last bits: compare with a relative tolerance.
function assertSame(a, b, path) {
  if (typeof a === 'number' && typeof b === 'number') {
    const scale = Math.max(Math.abs(a), Math.abs(b), 1e-300);
    assert.ok(Math.abs(a - b) / scale < 1e-9, `${path}: ${a} vs ${b}`);
    return;
  }
  assert.equal(typeof a, typeof b, `${path}: type`);
  if (a && typeof a === 'object') {
    assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort(), `${path}: keys`);
    for (const key of Object.keys(a)) assertSame(a[key], b[key], `${path}/${key}`);
    return;
  }
  assert.equal(a, b, path);
}

const golden = JSON.parse(readFileSync(join(here, 'golden_requests.json'), 'utf8')).requests;

test('golden requests give the native answers through the wasm module', () => {
  const lines = golden.map((request) => JSON.stringify(request));
  const native = nativeAnswers(lines);
  lines.forEach((line, i) => assertSame(JSON.parse(core.estimate(line)), native[i], `request ${i}`));
});

test('a deployment plan is identical natively and in wasm', () => {
  const request = JSON.stringify({ model: 'qwen3-32b', weights: 'Q4_K_M', context_tokens: 8192,
                                   plan: { users: 8, tokens_per_s: 10 } });
  const answer = JSON.parse(core.plan(request));
  assert.equal(answer.ok, true);
  assert.ok(answer.result.setups.length > 0);
  assertSame(answer, nativeAnswers([request])[0], 'plan');
});

test('catalog is identical natively and in wasm', () => {
  assertSame(JSON.parse(core.catalog()), nativeAnswers(['catalog'])[0], 'catalog');
});

test('the catalog listing dist/llmcalc_core.js carries is the module\'s own, as the page reads it', { skip: !process.env.LLMCALC_CORE_JS ? false : 'a build-tree module carries none' }, () => {
  const factory = createRequire(import.meta.url)(resolve(modulePath));
  const listing = factory.catalogListing;
  assert.equal(typeof listing, 'object');
  const catalog = JSON.parse(core.catalog()).result;
  assertSame(listing, pageListing(catalog), 'listing');
  // Every model and device, each with the module's name for it, in the menus' order: by name.
  const byId = (records) => records.map((r) => [r.id, r.name]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  for (const kind of ['models', 'devices']) {
    assert.deepEqual(byId(listing[kind]), byId(catalog[kind]));
    listing[kind].slice(1).forEach((record, i) =>
      assert.ok(listing[kind][i].name.localeCompare(record.name, 'en') <= 0, `${kind}: ${listing[kind][i].name} before ${record.name}`));
  }
});

test('version is a semantic version string', () => {
  assert.match(core.version(), /^\d+\.\d+\.\d+$/);
});

test('bad input comes back as issues with JSON paths, never as a throw', () => {
  const cases = [
    ['{not json', 'malformed_json', ''],
    [JSON.stringify({ model: 'no-such-model' }), 'unknown_model', '/model'],
    [JSON.stringify({ context_tokens: -5 }), 'out_of_range', '/context_tokens'],
    [JSON.stringify({ context_tokens: 'many' }), 'not_an_integer', '/context_tokens'],
    [JSON.stringify({ hardware: 'no-such-gpu' }), 'unknown_hardware', '/hardware'],
    ['[]', 'not_an_object', '/'],
  ];
  for (const [request, code, path] of cases) {
    const envelope = JSON.parse(core.estimate(request));
    assert.equal(envelope.ok, false, request);
    assert.ok(envelope.issues.some((i) => i.code === code && i.path === path),
      `${request}: ${JSON.stringify(envelope.issues)}`);
  }
});

// An argument larger than the module's memory grows it while the call makes room for it: the
// bytes must land in the grown memory. A 40 MB safetensors start whose header names one F16
// tensor of 2 x 2 (4 parameters, 8 bytes): only bytes read whole give that answer.
test('an argument larger than the module\'s memory is read whole', () => {
  const header = new TextEncoder().encode(JSON.stringify({ w: { dtype: 'F16', shape: [2, 2], data_offsets: [0, 8] } }));
  const bytes = new Uint8Array(40 * 1024 * 1024);
  new DataView(bytes.buffer).setUint32(0, header.length, true);  // the header's length, little-endian u64
  bytes.set(header, 8);
  const envelope = JSON.parse(core.read_safetensors_header(bytes));
  assert.equal(envelope.ok, true, JSON.stringify(envelope.issues));
  assert.equal(envelope.result.params_total, 4);
  assert.deepEqual(envelope.result.bytes_by_dtype, { F16: 8 });
  // Calls after the growth are answered as before it.
  assert.equal(JSON.parse(core.estimate(JSON.stringify({ model: 'llama-3.1-8b' }))).ok, true);
});

test('arguments that are neither text nor bytes are refused', () => {
  assert.throws(() => core.estimate(42), TypeError);
  assert.throws(() => core.read_safetensors_header({ length: 3 }), TypeError);
});
