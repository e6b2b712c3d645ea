// What a command writes to stdout, when that can be known without running it: echo and
// printf of constants, cat of a here-doc, and the decoders attackers chain in front of a shell
// (base64 -d, xxd -r -p, openssl base64 -d, rev, tr). Knowing the output lets the analyzer
// read `echo cm0gLXJmIC8K | base64 -d | sh` as `rm -rf /`.
//
// Unknown output keeps the taint of the input and adds the command's own: a download marks
// kTaintNetwork, a decoder fed with unknown data kTaintDecoded.
#pragma once

#include <optional>
#include <string>

#include "execpolicy/invocation.h"

namespace clawtools::execpolicy {

// `argv` fully static (no dynamic field); `in` is the command's stdin.
Stream EvaluateOutput(const Invocation& inv);

// Programs whose output is fetched from the network.
bool IsDownloader(std::string_view program);

std::optional<std::string> DecodeBase64(std::string_view text);
std::optional<std::string> DecodeHex(
    std::string_view text);  // xxd -r -p: hex digits, spaces ignored

}  // namespace clawtools::execpolicy
