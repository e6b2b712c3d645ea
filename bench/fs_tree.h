// Deterministic test tree for the fs benchmarks: `files` files spread over 20 x 10 folders,
// ~`avg_bytes` each of word lines from a fixed vocabulary (a fixed-seed LCG, so every run and
// every machine gets the same bytes). About 1% of files contain "needle_xyzzy"; about 5%
// contain "ErrorHandler" preceded by a word. A marker file makes regeneration a no-op.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace clawtools::bench {

inline void GenerateFsTree(const std::filesystem::path& root, int files = 20000,
                           size_t avg_bytes = 10000) {
  namespace fs = std::filesystem;
  std::string marker_name = ".generated-" + std::to_string(files) + "-" + std::to_string(avg_bytes);
  if (fs::exists(root / marker_name)) return;
  fs::remove_all(root);
  static const char* kWords[] = {
      "alpha",   "beta",     "gamma",  "delta",  "return",  "static",   "const",    "void",
      "int",     "struct",   "class",  "public", "private", "template", "typename", "namespace",
      "include", "define",   "if",     "else",   "for",     "while",    "switch",   "case",
      "break",   "continue", "value",  "result", "status",  "buffer",   "stream",   "handler",
      "request", "response", "config", "options"};
  constexpr size_t kNumWords = sizeof(kWords) / sizeof(kWords[0]);
  uint64_t state = 0x2545F4914F6CDD1DULL;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  std::string content;
  for (int i = 0; i < files; ++i) {
    fs::path dir = root / ("d" + std::to_string(i % 20)) / ("s" + std::to_string((i / 20) % 10));
    if (i < 200) fs::create_directories(dir);
    size_t size = avg_bytes / 2 + next() % avg_bytes;
    content.clear();
    bool needle = next() % 100 == 0, handler = next() % 20 == 0;
    size_t needle_at = needle ? next() % size : SIZE_MAX,
           handler_at = handler ? next() % size : SIZE_MAX;
    while (content.size() < size) {
      size_t words = 4 + next() % 10;
      content.append(next() % 4 * 2, ' ');
      for (size_t w = 0; w < words; ++w) {
        content += kWords[next() % kNumWords];
        content += w + 1 < words ? ' ' : '\n';
      }
      if (content.size() > needle_at) {
        content += "  found needle_xyzzy here\n";
        needle_at = SIZE_MAX;
      }
      if (content.size() > handler_at) {
        content += "  registerErrorHandler(options);\n";
        handler_at = SIZE_MAX;
      }
    }
    std::ofstream(dir / ("f" + std::to_string(i) + ".txt"), std::ios::binary) << content;
  }
  std::ofstream(root / marker_name) << "ok\n";
}

}  // namespace clawtools::bench
