// AnalyzeCommand over the whole corpus (dangerous and harmless), reported per command, plus
// a few shapes on their own: a plain command, an evasion, a long script.
#include <benchmark/benchmark.h>

#include <string>

#include "execpolicy/command_analysis.h"
#include "execpolicy/corpus.h"  // tests/execpolicy/corpus.h

namespace clawtools::execpolicy {
namespace {

void BM_Corpus(benchmark::State& state) {
  std::vector<std::string_view> all;
  for (const auto& d : corpus::DangerousCommands()) all.push_back(d.command);
  for (auto h : corpus::HarmlessCommands()) all.push_back(h);
  for (auto _ : state) {
    for (auto c : all) benchmark::DoNotOptimize(AnalyzeCommand(c));
  }
  state.SetItemsProcessed(state.iterations() * all.size());
  state.counters["us_per_command"] = benchmark::Counter(
      static_cast<double>(state.iterations() * all.size()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Corpus)->Unit(benchmark::kMillisecond);

void BM_One(benchmark::State& state, const char* command) {
  for (auto _ : state) benchmark::DoNotOptimize(AnalyzeCommand(command));
}
BENCHMARK_CAPTURE(BM_One, plain, "git status")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_One, pipeline, "find . -name '*.o' -print | xargs wc -l | sort -n")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_One, evasion, "X=rm; $X${IFS}-rf $'\\x2f'")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_One, decode_chain, "echo cm0gLXJmIC8= | base64 -d | sh")
    ->Unit(benchmark::kMicrosecond);

void BM_LongScript(benchmark::State& state) {
  std::string s;
  while (s.size() < 10000) s += "cd src && make -j4 || echo failed; ";
  for (auto _ : state) benchmark::DoNotOptimize(AnalyzeCommand(s));
  state.SetBytesProcessed(state.iterations() * s.size());
}
BENCHMARK(BM_LongScript)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace clawtools::execpolicy
