// The data/ files in the wasm build. cmake/embed_data.mjs writes them into the module's JS glue
// (a --pre-js script defining llmcalcDataFiles, [path, JSON text] pairs), where gzip compresses
// them as text; inside the base64 wasm they would cost about twice as much. The native build
// compiles them in instead (the generated embedded_data.cpp).
#include <emscripten.h>

#include <string>

#include "llmcalc/embedded_data.h"

// All files as one UTF-8 buffer, each path and text NUL-terminated (JSON text holds no raw NUL),
// encoded once by the browser's TextEncoder: a call per string through Emscripten's JS encoder
// cost 14 ms of the first estimate. Returns its size in bytes.
EM_JS(int, llmcalc_data_encode, (), {
  var nul = String.fromCharCode(0);
  Module.llmcalcDataBytes = new TextEncoder().encode(
      llmcalcDataFiles.map(function(file) { return file[0] + nul + file[1] + nul; }).join(""));
  return Module.llmcalcDataBytes.length;
});

// Copies the buffer into `out` and lets the JS copies go.
EM_JS(void, llmcalc_data_copy, (char* out), {
  HEAPU8.set(Module.llmcalcDataBytes, out);
  Module.llmcalcDataBytes = null;
  llmcalcDataFiles = null;
});

namespace llmcalc {

const std::vector<EmbeddedFile>& embedded_data_files() {
  // The text lives as long as the module; the files point into it.
  static std::string storage;
  static const std::vector<EmbeddedFile> files = [] {
    storage.assign(static_cast<std::size_t>(llmcalc_data_encode()), '\0');
    llmcalc_data_copy(storage.data());
    std::vector<EmbeddedFile> out;
    for (std::size_t at = 0; at < storage.size();) {
      const char* path = storage.c_str() + at;
      at += std::char_traits<char>::length(path) + 1;
      const char* content = storage.c_str() + at;
      at += std::char_traits<char>::length(content) + 1;
      out.push_back({path, content});
    }
    return out;
  }();
  return files;
}

}  // namespace llmcalc
