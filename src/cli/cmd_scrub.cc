#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "config/config.h"
#include "scrub/scrubber.h"

namespace clawtools::cli {

int RunScrub(const ScrubFlags& flags) {
  Scrubber scrubber;
  if (!flags.config.empty()) {
    auto config = Config::LoadFile(flags.config);
    if (!config) {
      std::cerr << "clawtools scrub: " << config.error().log_message() << "\n";
      return kExitFailure;
    }
    for (const auto& s : config->secret_values()) scrubber.AddSecret(s);
  }
  std::FILE* in = stdin;
  if (!flags.file.empty() && flags.file != "-") {
    in = std::fopen(flags.file.c_str(), "rb");
    if (!in) {
      std::cerr << "clawtools scrub: cannot open " << flags.file << "\n";
      return kExitFailure;
    }
  }
  Scrubber::Stream stream(scrubber, [](std::string_view out) {
    std::fwrite(out.data(), 1, out.size(), stdout);
  });
  std::string buf(1 << 16, '\0');
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), in)) > 0) stream.Write({buf.data(), n});
  stream.Finish();
  const bool read_error = std::ferror(in);
  if (in != stdin) std::fclose(in);
  std::fflush(stdout);
  if (read_error) {
    std::cerr << "clawtools scrub: read error\n";
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace clawtools::cli
