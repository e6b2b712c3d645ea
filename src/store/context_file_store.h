// Context files (SOUL.md, USER.md, ...) kept in the database: agent-level templates in
// agent_context_files and per-user copies in user_context_files. Routing between the two is
// ContextFileRouter's job; this class is plain storage. Names and content are stored
// verbatim (no case folding, no trimming).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "store/store.h"

namespace clawtools::store {

struct ContextFile {
  std::string file_name;
  std::string content;
  int64_t updated_at = 0;  // Unix ms
};

// Thread-safe; holds a reference to `store`, which must outlive it.
class ContextFileStore {
 public:
  explicit ContextFileStore(Store& store) : store_(store) {}

  Expected<std::optional<ContextFile>> GetAgentFile(std::string_view agent_id,
                                                    std::string_view file_name) const;
  Status PutAgentFile(std::string_view agent_id, std::string_view file_name,
                      std::string_view content) const;
  // True when a row was deleted.
  Expected<bool> DeleteAgentFile(std::string_view agent_id, std::string_view file_name) const;
  // Ordered by file name.
  Expected<std::vector<ContextFile>> ListAgentFiles(std::string_view agent_id) const;

  Expected<std::optional<ContextFile>> GetUserFile(std::string_view agent_id,
                                                   std::string_view user_id,
                                                   std::string_view file_name) const;
  Status PutUserFile(std::string_view agent_id, std::string_view user_id,
                     std::string_view file_name, std::string_view content) const;
  Expected<bool> DeleteUserFile(std::string_view agent_id, std::string_view user_id,
                                std::string_view file_name) const;
  Expected<std::vector<ContextFile>> ListUserFiles(std::string_view agent_id,
                                                   std::string_view user_id) const;

 private:
  Store& store_;
};

}  // namespace clawtools::store
