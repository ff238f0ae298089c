// TensorName's word-at-a-time character search finds what a character-by-character scan finds,
// and each tensor carries the quantizer's name tests its name passes.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "llmcalc/catalog.h"
#include "llmcalc/issues.h"
#include "llmcalc/scenario.h"
#include "llmcalc/tensor_name.h"
#include "gguf_quant_mix.h"

namespace {

std::vector<std::size_t> scanned(const std::string& text, char c) {
  std::vector<std::size_t> at;
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] == c) at.push_back(k);
  }
  return at;
}

std::vector<std::size_t> searched(const llmcalc::TensorName& name, char c) {
  std::vector<std::size_t> at;
  name.for_each_position_of(c, [&](std::size_t k) { at.push_back(k); });
  return at;
}

// Calls visit(model id, tensor) for every tensor of every catalog model.
template <typename Visit>
void for_each_catalog_tensor(Visit visit) {
  for (const llmcalc::CatalogModel& entry : llmcalc::Catalog::instance().models()) {
    llmcalc::Issues issues;
    const llmcalc::ModelSpec* spec = llmcalc::catalog_model_spec(entry.id, issues);
    REQUIRE(spec);
    for (const llmcalc::TensorSpec& t : spec->tensors) visit(entry.id, t);
  }
}

}  // namespace

TEST_CASE("TensorName finds a character where a scan of its characters does", "[tensor_name]") {
  std::vector<std::string> texts = {"", "_", "blk.3.attn_v.weight", "blk.61.ffn_down_exps.weight",
                                    "token_embd.weight", std::string(47, '_'), std::string(46, 'a') + "_"};
  // The character at each position alone, and the bytes around the searched one that a carry
  // or a borrow between bytes would confuse with it: 0x5e, 0x60, 0xdf (0x5f with the high bit),
  // 0x00 and 0xff.
  for (std::size_t k = 0; k < 47; ++k) {
    std::string text(47, 'x');
    text[k] = '_';
    texts.push_back(text);
    texts.push_back(std::string(k, '\x5e') + "_" + std::string(46 - k, '\x60'));
    texts.push_back(std::string(k, '\xdf') + "_" + std::string(46 - k, '\xff'));
    texts.push_back(text.substr(0, k + 1));
  }
  std::mt19937 random(22);
  const std::string alphabet = std::string("_.abk0129") + "\x5e\x60\xdf\xff\x01\x7f\x80";
  for (int n = 0; n < 2000; ++n) {
    std::string text(random() % 48, ' ');
    for (char& c : text) c = alphabet[random() % alphabet.size()];
    texts.push_back(text);
  }
  for (const std::string& text : texts) {
    const llmcalc::TensorName name(text);
    for (char c : {'_', '.', 'k', '\xdf', '\x01'}) {
      INFO("text '" << text << "', character " << static_cast<int>(c));
      CHECK(searched(name, c) == scanned(text, c));
    }
  }
  // And on every tensor name of the catalog.
  std::size_t names = 0;
  for_each_catalog_tensor([&](const std::string& model, const llmcalc::TensorSpec& t) {
    const std::string text(t.name.view());
    if (searched(t.name, '_') != scanned(text, '_')) FAIL("tensor " << text << " of " << model);
    ++names;
  });
  CHECK(names > 100000);  // 120,430 on 2026-12-03
}

TEST_CASE("Each catalog tensor carries the quantizer name tests its name passes", "[tensor_name][gguf]") {
  // llama_tensor_get_type_impl tests name.find(text) != npos for each of these texts.
  const std::pair<const char*, llmcalc::QuantNameTest> kTests[] = {
      {"attn_k.weight", llmcalc::kNameAttnK}, {"attn_q.weight", llmcalc::kNameAttnQ},
      {"attn_output.weight", llmcalc::kNameAttnOutput}, {"ffn_down", llmcalc::kNameFfnDown},
      {"ffn_gate", llmcalc::kNameFfnGate}, {"ffn_up", llmcalc::kNameFfnUp}};
  auto found = [&](const std::string& name) {
    std::uint8_t tests = 0;
    for (const auto& [text, bit] : kTests) {
      if (name.find(text) != std::string::npos) tests |= bit;
    }
    return tests;
  };
  std::size_t passing = 0;
  for_each_catalog_tensor([&](const std::string& model, const llmcalc::TensorSpec& t) {
    const std::string name(t.name.view());
    // Set for the parts llama.cpp's rules quantize, the text and its MTP layers.
    const bool quantized_part = t.part == llmcalc::ModelPart::text || t.part == llmcalc::ModelPart::mtp;
    const std::uint8_t expected = quantized_part ? found(name) : 0;
    if (t.quant_name_tests != expected) FAIL(name << " of " << model << ": " << int(t.quant_name_tests));
    passing += t.quant_name_tests != 0;
  });
  CHECK(passing > 20000);
  // Names no catalog tensor has: several occurrences, an occurrence cut short, texts at the end.
  for (const std::string name : {"blk.0.attn_kv.attn_k.weight", "attn_k.weigh", "xattn_q.weight", "ffn_",
                                 "ffn_u", "blk.1.ffn_up_ffn_down", "attn_output.weight.ffn_gate", "attn__k.weight",
                                 "_attn_k.weight"}) {
    CHECK(int(llmcalc::quant_name_tests(llmcalc::TensorName(name))) == int(found(name)));
  }
}

