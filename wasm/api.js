// The module's functions (--post-js, inside its factory): a string or bytes in, the core's JSON
// answer out, through wasm/bindings.cpp's C exports. The names and arguments are the ones the
// page (web/src/10-core.mjs), the tests and the build call.
var llmcalcEncoder = new TextEncoder();
var llmcalcDecoder = new TextDecoder();

function llmcalcBytes(argument) {
  if (typeof argument === 'string') return llmcalcEncoder.encode(argument);
  if (argument instanceof ArrayBuffer) return new Uint8Array(argument);
  if (ArrayBuffer.isView(argument)) return new Uint8Array(argument.buffer, argument.byteOffset, argument.byteLength);
  throw new TypeError('llmcalc: pass a string or bytes');
}

// HEAPU8 is read after each call into the module: its memory may grow there, which replaces the
// view (`HEAPU8.set(bytes, _llmcalc_argument(n))` would write through the view it had before).
function llmcalcCall(run, argument, number) {
  var bytes = llmcalcBytes(argument);
  var into = _llmcalc_argument(bytes.length) >>> 0;
  HEAPU8.set(bytes, into);
  var size = run(number) >>> 0;
  var at = _llmcalc_answer() >>> 0;
  return llmcalcDecoder.decode(HEAPU8.subarray(at, at + size));
}

Module['estimate'] = function (request) { return llmcalcCall(_llmcalc_estimate, request); };
Module['explore'] = function (request) { return llmcalcCall(_llmcalc_explore, request); };
Module['rank'] = function (request) { return llmcalcCall(_llmcalc_rank, request); };
Module['plan'] = function (request) { return llmcalcCall(_llmcalc_plan, request); };
Module['catalog'] = function () { return llmcalcCall(_llmcalc_catalog, ''); };
Module['version'] = function () { return llmcalcCall(_llmcalc_version, ''); };
Module['read_gguf_header'] = function (bytes, fileSize) {
  return llmcalcCall(_llmcalc_read_gguf_header, bytes, fileSize);
};
Module['read_safetensors_header'] = function (bytes) {
  return llmcalcCall(_llmcalc_read_safetensors_header, bytes);
};
