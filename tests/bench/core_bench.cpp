// Native speed of the core: estimates, rank and the GGUF header reader.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>

#include "llmcalc/api.h"

namespace {

void BM_EstimateLlama8B(benchmark::State& state) {
  int64_t context = 8192;
  for (auto _ : state) {
    std::string request = R"({"model":"llama-3.1-8b","context_tokens":)" + std::to_string(context++ % 100000 + 1) + "}";
    benchmark::DoNotOptimize(llmcalc::estimate_json(request));
  }
}
BENCHMARK(BM_EstimateLlama8B)->Unit(benchmark::kMicrosecond);

void BM_EstimateDeepSeekV3(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(llmcalc::estimate_json(R"({"model":"deepseek-v3","weights":"Q4_K_M","hardware":"h100-sxm","devices":8})"));
  }
}
BENCHMARK(BM_EstimateDeepSeekV3)->Unit(benchmark::kMicrosecond);

void BM_RankCatalogWarm(benchmark::State& state) {
  llmcalc::rank_json(R"({"hardware":"rtx-4090"})");  // builds the model and plan caches once
  int64_t context = 4096;
  for (auto _ : state) {
    std::string request = R"({"hardware":"rtx-4090","context_tokens":)" + std::to_string(context++ % 60000 + 1024) + "}";
    benchmark::DoNotOptimize(llmcalc::rank_json(request));
  }
}
BENCHMARK(BM_RankCatalogWarm)->Unit(benchmark::kMillisecond);

// One input change on the page: estimate plus explore (matrix, sweep, device leaderboard).
void BM_PageRecompute(benchmark::State& state) {
  int64_t context = 16384;
  for (auto _ : state) {
    std::string request = R"({"model":"llama-3.1-8b","hardware":"rtx-4090","context_tokens":)" + std::to_string(context++) + "}";
    benchmark::DoNotOptimize(llmcalc::estimate_json(request));
    benchmark::DoNotOptimize(llmcalc::explore_json(request));
  }
}
BENCHMARK(BM_PageRecompute)->Unit(benchmark::kMillisecond);

// A GGUF header with 1,000 Q4_K tensors of 4096 x 4096 and a 32-entry metadata block.
std::string synthetic_gguf(int tensors) {
  std::string b = "GGUF";
  auto u32 = [&](uint32_t v) { b.append(reinterpret_cast<const char*>(&v), 4); };
  auto u64 = [&](uint64_t v) { b.append(reinterpret_cast<const char*>(&v), 8); };
  auto str = [&](const std::string& s) { u64(s.size()); b += s; };
  u32(3);
  u64(static_cast<uint64_t>(tensors));
  u64(32);
  for (int i = 0; i < 32; ++i) {
    str("meta.key." + std::to_string(i));
    u32(4);
    u32(static_cast<uint32_t>(i));
  }
  uint64_t offset = 0;
  for (int i = 0; i < tensors; ++i) {
    str("blk." + std::to_string(i / 9) + ".tensor_" + std::to_string(i) + ".weight");
    u32(2);
    u64(4096);
    u64(4096);
    u32(12);  // Q4_K
    u64(offset);
    offset += 4096 / 256 * 144 * 4096;
  }
  return b;
}

void BM_GgufHeader1000Tensors(benchmark::State& state) {
  std::string header = synthetic_gguf(1000);
  for (auto _ : state) benchmark::DoNotOptimize(llmcalc::read_gguf_json(header, 0));
}
BENCHMARK(BM_GgufHeader1000Tensors)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
