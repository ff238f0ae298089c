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

// The module, compiled once by the page: over http while llmcalc_core.wasm downloads (beside the
// glue's script); llm-calculator.html carries the bytes gzipped in a base64 data block (file://
// pages cannot fetch files), which the browser decodes natively: as a data: URL, then through a
// DecompressionStream. Every instance is made from it: the page's, a fresh one after a trap, and
// the worker's (web/src/12-core-worker.mjs), which then neither reads nor compiles the module
// again. Null where the glue's script is not found by its name: the factory finds the file itself.
function compiledModule() {
  const inlined = document.getElementById('llmcalc-wasm');
  if (inlined) {
    return fetch('data:application/gzip;base64,' + inlined.textContent.trim())
      .then(function (response) {
        return new Response(response.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
      })
      .then(function (bytes) { return WebAssembly.compile(bytes); });
  }
  const glue = document.querySelector('script[src$="llmcalc_core.js"]');
  if (!glue) return Promise.resolve(null);
  const url = new URL('llmcalc_core.wasm', glue.src).href;
  return WebAssembly.compileStreaming(fetch(url)).catch(function () {
    // A server that does not say application/wasm: compiled from the bytes.
    return fetch(url).then(function (response) { return response.arrayBuffer(); }).then(WebAssembly.compile);
  });
}

// The factory's options for one instance (the factory turns the object into the instance). The
// worker builds the same hook from the compiled module it is sent.
function instanceOptions(options) {
  const copy = Object.assign({}, options);
  if (options.wasmModule) {
    copy.instantiateWasm = function (imports, receive) {
      WebAssembly.instantiate(options.wasmModule, imports).then(function (instance) {
        receive(instance, options.wasmModule);
      });
      return {};
    };
  }
  return copy;
}

// The page loads llm-calc.js before llmcalc_core.js (the element can then replace a pre-rendered
// page that does not show its state before the large script arrives): index.html inserts both
// once its first frame is painted (web/start-after-paint.mjs), the single file has them inline,
// an embedding page may defer them. The factory is awaited until the glue's script element has
// run (or the window has loaded), else until the document's scripts have.
function scriptsRun() {
  if (typeof createLlmCalcCore === 'function') return Promise.resolve();
  const glue = document.querySelector('script[src$="llmcalc_core.js"]');
  return new Promise(function (done) {
    if (glue) {
      glue.addEventListener('load', done, { once: true });
      glue.addEventListener('error', done, { once: true });
    }
    if (document.readyState !== 'complete') {
      if (!glue) document.addEventListener('DOMContentLoaded', done, { once: true });
      window.addEventListener('load', done, { once: true });
    } else if (!glue) {
      done();
    }
  });
}

// An answer of the envelope's shape saying the call failed inside the module.
function internalError(message) {
  return JSON.stringify({
    ok: false, issues: [{ severity: 'error', code: 'internal_error', path: '', message: message }],
  });
}

// The module is built without exceptions (core/CMakeLists.txt): a broken invariant inside it
// traps (a WebAssembly.RuntimeError) and leaves that instance unusable. The call that trapped
// answers with an internal error, and a fresh instance from the same factory and compiled module
// replaces the broken one; calls made while it loads get the same error.
function restartingModule(module, options) {
  let current = module;
  return function call(name, args) {
    if (!current) return internalError('The calculator is restarting after an internal error; try again.');
    try {
      return current[name].apply(current, args);
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      current = null;
      createLlmCalcCore(instanceOptions(options)).then(function (fresh) { current = fresh; });
      return internalError('Internal error: ' + error.message);
    }
  };
}

// Loads the module once (createLlmCalcCore comes from llmcalc_core.js, a classic script).
function loadCore() {
  if (!corePromise) {
    let options = null;
    corePromise = scriptsRun().then(function () {
      if (typeof createLlmCalcCore !== 'function') throw new Error('llmcalc_core.js is not loaded');
      return compiledModule();
    }).then(function (wasmModule) {
      options = wasmModule ? { wasmModule: wasmModule } : {};
      return createLlmCalcCore(instanceOptions(options));
    }).then(function (module) {
      const call = restartingModule(module, options);
      const json = function (name) {
        return function (request) { return JSON.parse(call(name, [JSON.stringify(request)])); };
      };
      // The listing dist/llmcalc_core.js carries (web/build.mjs), else the module's answer.
      const listing = createLlmCalcCore.catalogListing;
      return {
        version: module.version(),
        catalog: listing || JSON.parse(module.catalog()).result,
        // Returns the envelope; callers decide whether issues are fatal.
        estimateEnvelope: json('estimate'),
        explore: json('explore'),
        rank: json('rank'),
        plan: json('plan'),
        // A client of the page's worker (web/src/12-core-worker.mjs), or null.
        worker: function () {
          const worker = LlmCalc.coreWorker(options);
          return worker && worker.client();
        },
        readGguf: function (bytes, fileSize) {
          return JSON.parse(call('read_gguf_header', [bytes, fileSize]));
        },
        readSafetensors: function (bytes) {
          return JSON.parse(call('read_safetensors_header', [bytes]));
        },
        estimate: function (request) {
          const envelope = JSON.parse(call('estimate', [JSON.stringify(request)]));
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
