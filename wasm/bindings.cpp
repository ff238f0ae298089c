// The embind surface: string-to-string functions only (DESIGN.md principle 2).
#include <emscripten/bind.h>

#include "llmcalc/api.h"

EMSCRIPTEN_BINDINGS(llmcalc_core) {
  emscripten::function("estimate", &llmcalc::estimate_json);
  emscripten::function("catalog", &llmcalc::catalog_json);
  emscripten::function("version", &llmcalc::version);
}
