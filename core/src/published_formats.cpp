// Published-size GGUF formats (see published_formats.h).
#include "published_formats.h"

#include <algorithm>
#include <cctype>

#include "llmcalc/weights.h"

namespace llmcalc {

std::string rules_format_for(const std::string& published) {
  if (published.rfind("UD-", 0) != 0) return "";
  std::string base = published.substr(3);
  if (is_gguf_format(base)) return base;
  // The _XL names: unsloth raises some tensors above the base type of the same letter.
  const std::string xl = "_K_XL";
  if (base.size() > xl.size() && base.compare(base.size() - xl.size(), xl.size(), xl) == 0) {
    std::string stem = base.substr(0, base.size() - xl.size());  // "Q4"
    if (stem == "Q8") return "Q8_0";
    for (const char* suffix : {"_K_M", "_K"}) {
      if (is_gguf_format(stem + suffix)) return stem + suffix;
    }
  }
  return "";
}

std::vector<PublishedFormat> published_formats(const nlohmann::json& record) {
  std::vector<PublishedFormat> out;
  auto repos = record.find("gguf_repos");
  if (repos == record.end() || !repos->is_array()) return out;
  for (const nlohmann::json& repo : *repos) {
    auto sizes = repo.find("file_sizes_bytes");
    if (sizes == repo.end() || !sizes->is_object() || repo.contains("variant")) continue;
    for (const auto& [format, bytes] : sizes->items()) {
      std::string rules = rules_format_for(format);
      if (rules.empty() || !bytes.is_number_integer() || bytes.get<int64_t>() <= 0) continue;
      bool seen = false;
      for (const PublishedFormat& p : out) seen |= p.format == format;
      if (!seen) out.push_back({format, rules, bytes.get<int64_t>(), repo.value("repo", "")});
    }
  }
  return out;
}

std::optional<PublishedFormat> published_format(const nlohmann::json& record, const std::string& format) {
  for (PublishedFormat& p : published_formats(record)) {
    if (p.format == format) return p;
  }
  return std::nullopt;
}

const nlohmann::json* gguf_repo_entry(const nlohmann::json& record, const std::string& format, bool& listed) {
  listed = false;
  auto repos = record.find("gguf_repos");
  if (repos == record.end() || !repos->is_array() || repos->empty()) return nullptr;
  auto same = [&](const std::string& quant) {
    return quant.size() == format.size() &&
           std::equal(quant.begin(), quant.end(), format.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           });
  };
  for (bool variants : {false, true}) {
    for (const nlohmann::json& entry : *repos) {
      if (entry.contains("variant") != variants) continue;
      auto quants = entry.find("quants");  // read in place: value() would copy the list
      if (quants == entry.end()) continue;
      for (const nlohmann::json& quant : *quants) {
        if (quant.is_string() && same(quant.get_ref<const std::string&>())) {
          listed = true;
          return &entry;
        }
      }
    }
  }
  return &repos->front();
}

int64_t published_mmproj_bytes(const nlohmann::json& record, const std::string& format) {
  bool listed = false;
  const nlohmann::json* entry = gguf_repo_entry(record, format, listed);
  if (!entry) return 0;
  auto bytes = entry->find("mmproj_bytes");
  if (bytes == entry->end() || !bytes->is_number_integer()) return 0;
  return bytes->get<int64_t>() > 0 ? bytes->get<int64_t>() : kNoPublishedMmproj;
}

}  // namespace llmcalc
