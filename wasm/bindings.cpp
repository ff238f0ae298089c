// The module's surface: string-to-string functions only (DESIGN.md principle 2), as C exports.
// wasm/api.js writes a call's argument into the buffer llmcalc_argument() returns, calls the
// function and reads its answer (llmcalc_answer(), the size the call returned) with the browser's
// own TextEncoder and TextDecoder. embind did the same through a JS loop over every byte of the
// answer (a rank's 96 KB), and its glue was 4 KB gzip larger (issue #22).
#include <emscripten.h>

#include <cstddef>
#include <string>
#include <utility>

#include "llmcalc/api.h"

namespace {

std::string argument;
std::string answer;

// The answer's size; the argument (up to a GGUF header of megabytes) is let go.
std::size_t answered(std::string text) {
  answer = std::move(text);
  std::string().swap(argument);
  return answer.size();
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE char* llmcalc_argument(std::size_t size) {
  argument.assign(size, '\0');
  return argument.data();
}

EMSCRIPTEN_KEEPALIVE const char* llmcalc_answer() { return answer.data(); }

EMSCRIPTEN_KEEPALIVE std::size_t llmcalc_estimate() { return answered(llmcalc::estimate_json(argument)); }
EMSCRIPTEN_KEEPALIVE std::size_t llmcalc_catalog() { return answered(llmcalc::catalog_json()); }
EMSCRIPTEN_KEEPALIVE std::size_t llmcalc_rank() { return answered(llmcalc::rank_json(argument)); }
EMSCRIPTEN_KEEPALIVE std::size_t llmcalc_explore() { return answered(llmcalc::explore_json(argument)); }
EMSCRIPTEN_KEEPALIVE std::size_t llmcalc_plan() { return answered(llmcalc::plan_json(argument)); }
EMSCRIPTEN_KEEPALIVE std::size_t llmcalc_version() { return answered(llmcalc::version()); }
EMSCRIPTEN_KEEPALIVE std::size_t llmcalc_read_gguf_header(double file_size) {
  return answered(llmcalc::read_gguf_json(argument, file_size));
}
EMSCRIPTEN_KEEPALIVE std::size_t llmcalc_read_safetensors_header() {
  return answered(llmcalc::read_safetensors_json(argument));
}

}  // extern "C"
