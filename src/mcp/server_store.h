// The MCP client's store repository: server definitions (`mcp_servers`) and tool-definition
// hashes (`mcp_tool_hashes`). Grants and access requests have their own repository.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "mcp/server_config.h"
#include "mcp/tool_hashes.h"
#include "store/store.h"

namespace clawtools::mcp {

class McpServerStore {
 public:
  explicit McpServerStore(store::Store& store) : store_(store) {}

  // Enabled and disabled servers, sorted by name.
  Expected<std::vector<McpServerConfig>> List() const;
  // Inserts or replaces by name; returns the row id.
  Expected<std::string> Put(const McpServerConfig& server) const;
  Status Remove(const std::string& name) const;

 private:
  store::Store& store_;
};

class StoreToolHashes final : public ToolHashStore {
 public:
  explicit StoreToolHashes(store::Store& store) : store_(store) {}
  Expected<std::optional<ToolHashRecord>> Get(const std::string& server,
                                              const std::string& tool) override;
  Status Put(const std::string& server, const std::string& tool,
             const ToolHashRecord& record) override;

 private:
  store::Store& store_;
};

// Config servers first; store servers whose name the config does not define after them.
Expected<std::vector<McpServerConfig>> LoadMcpServers(const Json& config_mcp_servers,
                                                      store::Store* store);

}  // namespace clawtools::mcp
