// The data/ files in the wasm build. cmake/embed_data.mjs writes them into the module's JS glue
// (a --pre-js script defining llmcalcDataFiles, [path, JSON text] pairs), where gzip compresses
// them as text; inside the base64 wasm they would cost about twice as much. The native build
// compiles them in instead (the generated embedded_data.cpp).
#include <emscripten.h>

#include <deque>
#include <string>

#include "llmcalc/embedded_data.h"

// Bytes of part `part` (0: path, 1: JSON text) of file `index`, without the terminating NUL.
EM_JS(int, llmcalc_data_part_size, (int index, int part), {
  return lengthBytesUTF8(llmcalcDataFiles[index][part]);
});

// Copies that part, NUL-terminated, into `out` (size + 1 bytes).
EM_JS(void, llmcalc_data_part_copy, (int index, int part, char* out, int size), {
  stringToUTF8(llmcalcDataFiles[index][part], out, size + 1);
});

EM_JS(int, llmcalc_data_count, (), { return llmcalcDataFiles.length; });

// Once copied into the module the JS copy is garbage.
EM_JS(void, llmcalc_data_release, (), { llmcalcDataFiles = null; });

namespace llmcalc {
namespace {

std::string data_part(int index, int part) {
  int size = llmcalc_data_part_size(index, part);
  std::string text(static_cast<std::size_t>(size) + 1, '\0');
  llmcalc_data_part_copy(index, part, text.data(), size);
  text.resize(static_cast<std::size_t>(size));
  return text;
}

}  // namespace

const std::vector<EmbeddedFile>& embedded_data_files() {
  // The strings live as long as the module; a deque never moves its elements.
  static std::deque<std::string> storage;
  static const std::vector<EmbeddedFile> files = [] {
    std::vector<EmbeddedFile> out;
    int count = llmcalc_data_count();
    for (int i = 0; i < count; ++i) {
      const std::string& path = storage.emplace_back(data_part(i, 0));
      const std::string& content = storage.emplace_back(data_part(i, 1));
      out.push_back({path.c_str(), content.c_str()});
    }
    llmcalc_data_release();
    return out;
  }();
  return files;
}

}  // namespace llmcalc
