// Adapter over the wasm module: JSON in, parsed envelope out; failures become LlmCalcError.
import { LlmCalc } from './00-namespace.mjs';

class LlmCalcError extends Error {
  constructor(issues) {
    const first = issues && issues.length ? issues[0].message : 'Unknown error';
    super(first);
    this.name = 'LlmCalcError';
    this.issues = issues || [];
  }
}

let corePromise = null;

// The factory's options. Over http the module fetches llmcalc_core.wasm beside its script and
// compiles it while it downloads; llm-calculator.html carries the bytes gzipped in a base64 data
// block (file:// pages cannot fetch files), which the browser decodes natively: as a data: URL,
// then through a DecompressionStream.
function moduleOptions() {
  const inlined = document.getElementById('llmcalc-wasm');
  if (!inlined) return Promise.resolve({});
  return fetch('data:application/gzip;base64,' + inlined.textContent.trim())
    .then(function (response) {
      return new Response(response.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
    })
    .then(function (bytes) { return { wasmBinary: new Uint8Array(bytes) }; });
}

// The page loads llm-calc.js before llmcalc_core.js (the element can then replace a pre-rendered
// page that does not show its state before the large script arrives), both deferred: the factory
// is awaited until the document's scripts have run.
function scriptsRun() {
  if (typeof createLlmCalcCore === 'function' || document.readyState === 'complete') return Promise.resolve();
  return new Promise(function (done) {
    document.addEventListener('DOMContentLoaded', done, { once: true });
    window.addEventListener('load', done, { once: true });
  });
}

// Loads the module once (createLlmCalcCore comes from llmcalc_core.js, a classic script).
function loadCore() {
  if (!corePromise) {
    corePromise = scriptsRun().then(function () {
      if (typeof createLlmCalcCore !== 'function') throw new Error('llmcalc_core.js is not loaded');
      return moduleOptions();
    }).then(function (options) {
      return createLlmCalcCore(options);
    }).then(function (module) {
      // The listing dist/llmcalc_core.js carries (web/build.mjs), else the module's answer.
      const listing = createLlmCalcCore.catalogListing;
      return {
        version: module.version(),
        catalog: listing ? JSON.parse(listing) : JSON.parse(module.catalog()).result,
        // Returns the envelope; callers decide whether issues are fatal.
        estimateEnvelope: function (request) {
          return JSON.parse(module.estimate(JSON.stringify(request)));
        },
        explore: function (request) {
          return JSON.parse(module.explore(JSON.stringify(request)));
        },
        rank: function (request) {
          return JSON.parse(module.rank(JSON.stringify(request)));
        },
        plan: function (request) {
          return JSON.parse(module.plan(JSON.stringify(request)));
        },
        readGguf: function (bytes, fileSize) {
          return JSON.parse(module.read_gguf_header(bytes, fileSize));
        },
        readSafetensors: function (bytes) {
          return JSON.parse(module.read_safetensors_header(bytes));
        },
        estimate: function (request) {
          const envelope = JSON.parse(module.estimate(JSON.stringify(request)));
          if (!envelope.ok) throw new LlmCalcError(envelope.issues);
          return envelope;
        },
      };
    });
  }
  return corePromise;
}

LlmCalc.LlmCalcError = LlmCalcError;
LlmCalc.loadCore = loadCore;
