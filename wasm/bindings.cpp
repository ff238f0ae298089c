// The embind surface: string-to-string functions only (DESIGN.md principle 2).
#include <emscripten/bind.h>

#include "llmcalc/api.h"

EMSCRIPTEN_BINDINGS(llmcalc_core) {
  emscripten::function("estimate", &llmcalc::estimate_json);
  emscripten::function("catalog", &llmcalc::catalog_json);
  emscripten::function("rank", &llmcalc::rank_json);
  emscripten::function("explore", &llmcalc::explore_json);
  emscripten::function("plan", &llmcalc::plan_json);
  emscripten::function("version", &llmcalc::version);
  emscripten::function("read_gguf_header", &llmcalc::read_gguf_json);
  emscripten::function("read_safetensors_header", &llmcalc::read_safetensors_json);
}
