// Writes a C++ source holding every JSON file under data/ as a string literal, minified and
// without the human-only keys (notes, copies of sources, provenance), so the module carries its
// facts compactly and never fetches them (DESIGN.md principle 3). Model configs keep only the keys
// the core reads, that is, the keys its sources name as string literals: tokenizer ids, training
// settings, remote-code maps and RoPE factor tables stay in data/ but not in the module.
// The wasm build takes the same files as a --pre-js script instead (output ending in .js): inside
// the module's base64 wasm gzip gains little on JSON, in the JS glue it compresses as text.
// Usage: node cmake/embed_data.mjs <data dir> <core source dir> <output .cpp | output .js>
import { readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const [dataDir, coreDir, output] = process.argv.slice(2);
const HUMAN_ONLY = new Set(['notes', 'note', 'source_copy', 'source_copy_others', 'sources_other',
  'provenance', 'memory_note', 'bandwidth_source', 'memory_assumed', 'region_note', 'listed_until',
  'billing_source', 'what', 'quote', 'cross_check', 'price_used_note', 'rounded', 'rounded_source', 'by_dtype', 'layout', 'description', 'behaviours', 'evidence',
  // Provenance and cross-checks the tests read from data/ itself (tests/core/test_support.h
  // data_record): how complete a config copy is, the Hub's published totals, where a price or
  // a link figure was read.
  'config_completeness', 'published_total_params', 'published_non_embedding_params', 'gguf_repo_source',
  'ollama_tag_source', 'model_card', 'price_new_source', 'price_used_sources', 'price_used_date', 'confidence',
  'pcie_peer_to_peer_quote', 'pcie_peer_to_peer_source', 'sources', 'socket_quote', 'socket_source',
  'rdma_quote', 'rdma_source', 'cuda_total_source', 'fp16_basis', 'fp16_source',
  // Facts the calculator does not compute with (yet): a device's vendor and FP8 rate, an API
  // provider's own model name, cached-input price and catalog flag, a cloud offer's price per
  // GPU (the core reads the instance's, usd_per_hour, and its device count).
  'vendor', 'fp8_dense_TFLOPS', 'provider_model', 'model_in_catalog', 'usd_per_million_cached_input_tokens',
  'usd_per_gpu_hour']);
// Published GGUF file sizes: the core sizes only the formats llama.cpp has no rules for
// (unsloth Dynamic, "UD-..."; src/published_formats.cpp); the others stay in data/ for the tests.
const PUBLISHED_SIZED = /^UD-/;

function walk(dir, suffixes) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, suffixes)
      : suffixes.some((suffix) => name.endsWith(suffix)) ? [path] : [];
  });
}

// Every string literal in the core's sources: the config keys it can read. A quantized
// checkpoint's own quantization_config is read from a user's config only (the catalog's formats
// are the request's), so checkpoint_quantization.cpp's names keep nothing.
const USER_CONFIG_ONLY = /checkpoint_quantization\.(cpp|h)$/;
const CORE_NAMES = new Set(walk(coreDir, ['.cpp', '.h']).filter((path) => !USER_CONFIG_ONLY.test(path)).flatMap((path) =>
  [...readFileSync(path, 'utf8').matchAll(/"([A-Za-z0-9_.-]+)"/g)].map((m) => m[1])));

function readKeysOnly(value) {
  if (Array.isArray(value)) return value.map(readKeysOnly);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([key]) => CORE_NAMES.has(key))
      .map(([key, v]) => [key, readKeysOnly(v)]));
  }
  return value;
}

function strip(value, depth) {
  if (Array.isArray(value)) return value.map((v) => strip(v, depth + 1));
  if (value && typeof value === 'object') {
    const out = {};
    for (const [key, v] of Object.entries(value)) {
      if (key === 'config') { out[key] = readKeysOnly(v); continue; }
      if (key === 'file_sizes_bytes') {
        const kept = Object.entries(v).filter(([format]) => PUBLISHED_SIZED.test(format));
        if (kept.length) out[key] = Object.fromEntries(kept);
        continue;
      }
      if (HUMAN_ONLY.has(key)) continue;
      out[key] = strip(v, depth + 1);
    }
    return out;
  }
  return value;
}

// What the core derives of a model or device record is left out of its copy (issue #22: 2.0 KB
// gzip over the catalog): its id, which the file's name spells (data/models/<id>.json,
// data/devices/<id>.json; a catalog test checks it); a model's source where it is the Hub's
// config.json of its hf_repo, and its gguf_repo where it is the first of its gguf_repos
// (CatalogModel::source and catalog_json write them back, core/src/catalog.cpp,
// core/src/catalog_listing.cpp).
function withoutDerived(name, record) {
  const folder = /^(models|devices)\/(.*)\.json$/.exec(name);
  if (!folder) return record;
  if (record.id !== folder[2]) throw new Error(`${name} is not named by its id (${record.id})`);
  delete record.id;
  if (folder[1] === 'devices') return record;
  if (record.source === `https://huggingface.co/${record.hf_repo}/blob/main/config.json`) delete record.source;
  if (record.gguf_repo && record.gguf_repo === record.gguf_repos?.[0]?.repo) delete record.gguf_repo;
  return record;
}

const files = walk(dataDir, ['.json']).map((path) => {
  const name = relative(dataDir, path);
  return [name, JSON.stringify(withoutDerived(name, strip(JSON.parse(readFileSync(path, 'utf8')), 0)))];
});
// wasm/embedded_data_from_js.cpp reads the script's array: [path, JSON text] pairs, each text a
// String.raw template, so its quotes and backslashes stay as they are (as a JSON string every quote
// would be escaped: 0.7 KB more gzip).
function script() {
  const entries = files.map(([name, text]) => {
    if (/`|\$\{/.test(text)) throw new Error(`${name} holds a backtick or \${, which end or open a template`);
    return `[${JSON.stringify(name)},String.raw\`${text}\`]`;
  });
  return `// Generated from data/ by cmake/embed_data.mjs; do not edit.
var llmcalcDataFiles = [${entries.join(',\n')}];
`;
}

function cppSource() {
  const entries = files.map(([name, text]) => {
    if (text.includes(')llmcalc_json"')) throw new Error(`${name} contains the raw-string delimiter`);
    return `      {"${name}", R"llmcalc_json(${text})llmcalc_json"},`;
  });
  return `// Generated from data/ by cmake/embed_data.mjs; do not edit.
#include "llmcalc/embedded_data.h"

namespace llmcalc {

const std::vector<EmbeddedFile>& embedded_data_files() {
  static const std::vector<EmbeddedFile> files = {
${entries.join('\n')}
  };
  return files;
}

}  // namespace llmcalc
`;
}

const body = output.endsWith('.js') ? script() : cppSource();
if (!existsSync(output) || readFileSync(output, 'utf8') !== body) writeFileSync(output, body);
