// GGUF formats a catalog model's repositories publish under names llama.cpp's file types do not
// have (unsloth Dynamic: UD-IQ1_M ... UD-Q8_K_XL), sized from their published file sizes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace llmcalc {

struct PublishedFormat {
  std::string format;  // as the repository names it, e.g. "UD-Q4_K_XL"
  std::string rules;   // the llama.cpp file type whose per-tensor rules place its tensors
  int64_t file_bytes = 0;
  std::string repo;
};

/// The llama.cpp file type a dynamic quant is built around (UD-Q4_K_XL -> Q4_K_M, UD-Q6_K_XL ->
/// Q6_K, UD-Q8_K_XL -> Q8_0, UD-IQ2_M -> IQ2_M); "" when none fits.
std::string rules_format_for(const std::string& published);

/// Every such format with a published size in the record's gguf_repos (file_sizes_bytes), the
/// first repository that lists it.
std::vector<PublishedFormat> published_formats(const nlohmann::json& record);

std::optional<PublishedFormat> published_format(const nlohmann::json& record, const std::string& format);

/// The record's GGUF repository (a gguf_repos entry) for `format`: the first that lists it, the
/// exact checkpoint before an Instruct variant (`listed` true); else the first repository
/// (`listed` false); nullptr without any.
const nlohmann::json* gguf_repo_entry(const nlohmann::json& record, const std::string& format, bool& listed);

/// The bytes of the mmproj file the GGUF repository for `format` publishes for llama.cpp's -hf to
/// pick (gguf_repos[].mmproj_bytes, where the record gives it); kNoPublishedMmproj where the record
/// says the repository has none (mmproj_bytes 0: a text-only conversion); 0 where it does not say.
constexpr int64_t kNoPublishedMmproj = -1;
int64_t published_mmproj_bytes(const nlohmann::json& record, const std::string& format);

}  // namespace llmcalc
