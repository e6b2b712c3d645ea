#include "config/config_schema.h"

namespace clawtools {
namespace {

Json Closed(Json properties) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
}
Json MapOf(Json value) { return {{"type", "object"}, {"additionalProperties", std::move(value)}}; }
Json Str() { return {{"type", "string"}}; }
Json Bool() { return {{"type", "boolean"}}; }
Json Int(int min = 0) { return {{"type", "integer"}, {"minimum", min}}; }
Json Num() { return {{"type", "number"}, {"minimum", 0}}; }
Json StrList() { return {{"type", "array"}, {"items", Str()}}; }
Json Enum(std::initializer_list<const char*> values) {
  Json e = Json::array();
  for (const char* v : values) e.push_back(v);
  return {{"type", "string"}, {"enum", std::move(e)}};
}

Json PolicyLists() {
  return {{"profile", Str()}, {"allow", StrList()}, {"deny", StrList()}, {"alsoAllow", StrList()}};
}

// Deny groups of the exec command analysis, switched off or on (names as in rule ids).
Json ExecDenyGroups() {
  return {{"deny_groups_disabled", StrList()}, {"deny_groups_enabled", StrList()}};
}

Json PolicySpec() {
  Json props = PolicyLists();
  props["exec"] = Closed(ExecDenyGroups());
  props["byProvider"] = MapOf(Closed(PolicyLists()));
  props["toolCallPrefix"] = Str();
  return Closed(std::move(props));
}

Json SandboxSpec() {
  return Closed({{"mode", Enum({"off", "non-main", "all", "required"})},
                 {"backend", Enum({"native", "docker"})},
                 {"workspace_access", Enum({"none", "ro", "rw"})},
                 {"network_enabled", Bool()},
                 {"memory_mb", Int(16)},
                 {"cpus", Num()},
                 {"pids_limit", Int(1)},
                 {"timeout_sec", Int(1)},
                 {"image", Str()},
                 {"scope", Enum({"session", "agent", "shared"})},
                 {"env", MapOf(Str())}});
}

Json BuildSchema() {
  Json mcp_server = Closed({{"transport", Enum({"stdio", "sse", "streamable-http"})},
                            {"command", Str()},
                            {"args", StrList()},
                            {"env", MapOf(Str())},
                            {"url", Str()},
                            {"headers", MapOf(Str())},
                            {"enabled", Bool()},
                            {"tool_prefix", Str()},
                            {"timeout_sec", Int(1)}});
  Json rate_rule = Closed({{"scope", Enum({"session", "agent", "user", "tool", "agent_tool", "user_tool"})},
                           {"per_second", Num()},
                           {"per_minute", Num()},
                           {"per_hour", Num()},
                           {"burst", Num()},
                           {"max_keys", Int(1)}});
  Json tools = Closed({
      {"profile", Str()},
      {"allow", StrList()},
      {"deny", StrList()},
      {"alsoAllow", StrList()},
      {"byProvider", MapOf(Closed(PolicyLists()))},
      {"execApproval", Closed({{"security", Enum({"deny", "allowlist", "full"})},
                               {"ask", Enum({"off", "on-miss", "always"})},
                               {"allowlist", StrList()},
                               {"timeout_sec", Int(1)}})},
      {"web_fetch", Closed({{"policy", Enum({"allow_all", "allowlist"})},
                            {"allowed_domains", StrList()},
                            {"blocked_domains", StrList()}})},
      {"web", Closed({{"brave", Closed({{"enabled", Bool()}, {"api_key", Str()}, {"max_results", Int(1)}})},
                      {"duckduckgo", Closed({{"enabled", Bool()}, {"max_results", Int(1)}})}})},
      {"browser", Closed({{"enabled", Bool()}, {"headless", Bool()}, {"remote_url", Str()}})},
      {"rate_limit_per_hour", Num()},
      {"rate_limits", {{"type", "array"}, {"items", rate_rule}}},
      {"scrub_credentials", Bool()},
      {"scrub_values", StrList()},
      {"timeout_sec", Int(1)},
      {"exec", Closed({{"deny_groups_disabled", StrList()},
                       {"deny_groups_enabled", StrList()},
                       {"timeout_sec", Int(1)},
                       {"max_output_chars", Int(256)},
                       {"shell", Str()},
                       {"env", MapOf(Str())},
                       {"sandbox_tmp_mb", Int(1)},
                       {"sandbox_file_mb", Int(1)},
                       {"process", Closed({{"max_per_session", Int(1)},
                                           {"max_total", Int(1)},
                                           {"buffer_bytes", Int(4096)},
                                           {"max_runtime_sec", Int(1)},
                                           {"retain_exited_sec", Int(0)}})}})},
      {"mcp_servers", MapOf(mcp_server)},
      {"custom_tools", Closed({{"encryption_key_file", Str()}})},
      {"fs", Closed({{"allowed_paths", {{"type", "array"},
                                        {"items", Closed({{"path", Str()}, {"writable", Bool()}})}}},
                     {"deny_paths", StrList()},
                     {"max_read_bytes", Int(1)},
                     {"max_write_bytes", Int(1)}})},
  });
  Json agent = Closed({{"id", Str()},
                       {"key", Str()},
                       {"type", Enum({"open", "predefined"})},
                       {"workspace", Str()},
                       {"tools", PolicySpec()},
                       {"sandbox", SandboxSpec()}});
  agent["required"] = Json::array({"id"});
  Json agents = Closed({
      {"defaults", Closed({{"subagents", Closed({{"maxSpawnDepth", Int(0)},
                                                 {"maxConcurrent", Int(1)},
                                                 {"maxChildrenPerAgent", Int(1)},
                                                 {"archiveAfterMinutes", Int(1)},
                                                 {"maxIterations", Int(1)}})},
                           {"sandbox", SandboxSpec()}})},
      {"list", {{"type", "array"}, {"items", agent}}},
  });
  return Closed({
      {"workspace", Str()},
      {"db", Str()},
      {"log", Closed({{"level", Enum({"debug", "info", "warn", "error", "off"})}})},
      {"gateway", Closed({{"listen", Str()},
                          {"token", Str()},
                          {"max_body_bytes", Int(1024)},
                          {"io_threads", Int(0)},
                          {"worker_threads", Int(0)},
                          {"mcp", Closed({{"allowed_origins", StrList()}, {"allowed_hosts", StrList()}})}})},
      {"tools", tools},
      {"agents", agents},
  });
}

}  // namespace

const Json& ConfigSchema() {
  static const Json schema = BuildSchema();
  return schema;
}

}  // namespace clawtools
