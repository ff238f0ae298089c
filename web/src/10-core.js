// Adapter over the wasm module: JSON in, parsed envelope out; failures become LlmCalcError.
(function (LlmCalc) {
  'use strict';

  class LlmCalcError extends Error {
    constructor(issues) {
      const first = issues && issues.length ? issues[0].message : 'Unknown error';
      super(first);
      this.name = 'LlmCalcError';
      this.issues = issues || [];
    }
  }

  let corePromise = null;

  // Loads the module once (createLlmCalcCore comes from llmcalc_core.js, a classic script).
  function loadCore() {
    if (!corePromise) {
      if (typeof createLlmCalcCore !== 'function') {
        return Promise.reject(new Error('llmcalc_core.js is not loaded'));
      }
      corePromise = createLlmCalcCore().then(function (module) {
        const catalog = JSON.parse(module.catalog());
        return {
          version: module.version(),
          catalog: catalog.result,
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
})(window.LlmCalc);
