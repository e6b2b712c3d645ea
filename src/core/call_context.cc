#include "core/call_context.h"

namespace clawtools {

const char* PeerKindName(PeerKind kind) {
  switch (kind) {
    case PeerKind::kDirect: return "direct";
    case PeerKind::kGroup: return "group";
    case PeerKind::kUnspecified: return "";
  }
  return "";
}

std::optional<PeerKind> ParsePeerKind(std::string_view s) {
  if (s.empty()) return PeerKind::kUnspecified;
  if (s == "direct") return PeerKind::kDirect;
  if (s == "group") return PeerKind::kGroup;
  return std::nullopt;
}

std::chrono::milliseconds CallContext::remaining() const {
  auto now = Clock::now();
  if (deadline_ <= now) return std::chrono::milliseconds(0);
  if (deadline_ == Clock::time_point::max()) return std::chrono::milliseconds::max();
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now);
}

}  // namespace clawtools
