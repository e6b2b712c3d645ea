// Throughput of clawtools::Scrubber on deterministic synthetic tool output.
//
//   scrub_bench [benchmark flags]                      Google Benchmark suite (MB/s)
//   scrub_bench --write-corpus PATH SIZE_MB 0|1         writes the corpus (1 = with secrets)
//   scrub_bench --scrub-file PATH                       best-of-5 Scrub() MB/s on a file
//
// The last two let bench/perl_yardstick.sh time perl on exactly the bytes measured here.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

#include "scrub/scrubber.h"
#include "scrub_corpus.h"

namespace {

using clawtools::Scrubber;

const Scrubber& SharedScrubber() {
  static const Scrubber scrubber;
  return scrubber;
}

const std::string& Corpus(size_t mb, bool with_secrets) {
  static std::string cache[2][2];
  std::string& slot = cache[mb > 1][with_secrets];
  if (slot.empty()) slot = clawtools::bench::MakeScrubCorpus(mb << 20, with_secrets).text;
  return slot;
}

// Args: corpus size in MB, with secrets (0/1).
void BM_Scrub(benchmark::State& state) {
  const std::string& text = Corpus(state.range(0), state.range(1) != 0);
  const Scrubber& scrubber = SharedScrubber();
  for (auto _ : state) benchmark::DoNotOptimize(scrubber.Scrub(text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Scrub)
    ->ArgNames({"MB", "secrets"})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({50, 0})
    ->Args({50, 1})
    ->Unit(benchmark::kMillisecond);

// Secret-free check only, as a caller deciding whether to copy would use it.
void BM_Contains(benchmark::State& state) {
  const std::string& text = Corpus(state.range(0), false);
  const Scrubber& scrubber = SharedScrubber();
  for (auto _ : state) benchmark::DoNotOptimize(scrubber.Contains(text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Contains)->ArgNames({"MB"})->Arg(1)->Unit(benchmark::kMillisecond);

// Args: corpus size in MB, with secrets, write size in bytes. Default flush size.
void BM_Stream(benchmark::State& state) {
  const std::string& text = Corpus(state.range(0), state.range(1) != 0);
  const size_t chunk = static_cast<size_t>(state.range(2));
  const Scrubber& scrubber = SharedScrubber();
  for (auto _ : state) {
    size_t out_bytes = 0;
    Scrubber::Stream stream(scrubber, [&](std::string_view piece) { out_bytes += piece.size(); });
    for (size_t pos = 0; pos < text.size(); pos += chunk) {
      stream.Write(std::string_view(text).substr(pos, chunk));
    }
    stream.Finish();
    benchmark::DoNotOptimize(out_bytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Stream)
    ->ArgNames({"MB", "secrets", "chunk"})
    ->Args({50, 1, 4096})
    ->Args({50, 1, 64 * 1024})
    ->Args({50, 0, 64 * 1024})
    ->Unit(benchmark::kMillisecond);

int WriteCorpus(const char* path, const char* size_mb, const char* with_secrets) {
  const size_t mb = std::strtoull(size_mb, nullptr, 10);
  if (mb == 0) {
    std::cerr << "SIZE_MB must be a positive integer\n";
    return 2;
  }
  const auto corpus =
      clawtools::bench::MakeScrubCorpus(mb << 20, std::string_view(with_secrets) == "1");
  std::ofstream out(path, std::ios::binary);
  out.write(corpus.text.data(), static_cast<std::streamsize>(corpus.text.size()));
  if (!out) {
    std::cerr << "cannot write " << path << "\n";
    return 1;
  }
  std::cout << corpus.text.size() << " bytes, " << corpus.secrets.size() << " planted secrets\n";
  return 0;
}

int ScrubFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (!in) {
    std::cerr << "cannot read " << path << "\n";
    return 1;
  }
  const std::string text = buffer.str();
  const Scrubber& scrubber = SharedScrubber();
  double best = 1e9;
  size_t redactions = 0;
  for (int i = 0; i < 5; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const std::string out = scrubber.Scrub(text);
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    redactions = 0;
    for (size_t p = out.find(Scrubber::kRedacted); p != std::string::npos;
         p = out.find(Scrubber::kRedacted, p + 1)) {
      ++redactions;
    }
  }
  std::printf("%.1f MB/s (%zu bytes, best of 5: %.4f s, %zu redactions)\n",
              static_cast<double>(text.size()) / (1 << 20) / best, text.size(), best, redactions);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "--write-corpus") {
    if (argc != 5) {
      std::cerr << "usage: scrub_bench --write-corpus PATH SIZE_MB 0|1\n";
      return 2;
    }
    return WriteCorpus(argv[2], argv[3], argv[4]);
  }
  if (argc >= 2 && std::string_view(argv[1]) == "--scrub-file") {
    if (argc != 3) {
      std::cerr << "usage: scrub_bench --scrub-file PATH\n";
      return 2;
    }
    return ScrubFile(argv[2]);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
