#include "mcp/tool_hashes.h"

namespace clawtools::mcp {

const char* HashStatusName(HashStatus s) {
  switch (s) {
    case HashStatus::kOk:
      return "ok";
    case HashStatus::kDrifted:
      return "drifted";
    case HashStatus::kApproved:
      return "approved";
  }
  return "ok";
}

std::optional<HashStatus> ParseHashStatus(std::string_view s) {
  if (s == "ok") return HashStatus::kOk;
  if (s == "drifted") return HashStatus::kDrifted;
  if (s == "approved") return HashStatus::kApproved;
  return std::nullopt;
}

Expected<std::optional<ToolHashRecord>> MemoryToolHashes::Get(const std::string& server,
                                                              const std::string& tool) {
  std::lock_guard lock(mu_);
  auto it = records_.find({server, tool});
  if (it == records_.end()) return std::nullopt;
  return it->second;
}

Status MemoryToolHashes::Put(const std::string& server, const std::string& tool,
                             const ToolHashRecord& record) {
  std::lock_guard lock(mu_);
  records_[{server, tool}] = record;
  return {};
}

}  // namespace clawtools::mcp
