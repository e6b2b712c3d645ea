// Where tool-definition hashes live, for drift detection (trust on first use).
//
// A record holds the approved hash (the first one seen, or the last one an operator approved)
// and, while a server offers a changed definition, that definition's hash as pending.
// MemoryToolHashes serves processes without a store; the store-backed one is in
// mcp/server_store.h.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "core/error.h"

namespace clawtools::mcp {

enum class HashStatus { kOk, kDrifted, kApproved };

const char* HashStatusName(HashStatus s);
std::optional<HashStatus> ParseHashStatus(std::string_view s);

struct ToolHashRecord {
  std::string hash;          // approved (or first seen)
  std::string pending_hash;  // the changed definition awaiting review; empty when none
  HashStatus status = HashStatus::kOk;
};

class ToolHashStore {
 public:
  virtual ~ToolHashStore() = default;
  virtual Expected<std::optional<ToolHashRecord>> Get(const std::string& server,
                                                      const std::string& tool) = 0;
  virtual Status Put(const std::string& server, const std::string& tool,
                     const ToolHashRecord& record) = 0;
};

class MemoryToolHashes final : public ToolHashStore {
 public:
  Expected<std::optional<ToolHashRecord>> Get(const std::string& server,
                                              const std::string& tool) override;
  Status Put(const std::string& server, const std::string& tool,
             const ToolHashRecord& record) override;

 private:
  std::mutex mu_;
  std::map<std::pair<std::string, std::string>, ToolHashRecord> records_;
};

}  // namespace clawtools::mcp
