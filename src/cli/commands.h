// The CLI's subcommands, one function each. main.cc parses flags (CLI11 lives only there)
// and calls these; each returns the process exit code.
//
// Exit codes (a public contract): 0 success / call dispatched (even when the tool reported
// an error), 1 runtime failure (bad config, unreachable store), 2 usage error.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace clawtools::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

struct CommonFlags {
  std::string config;
  std::string workspace;
  std::string db;
  std::string log_level;  // empty: warn for one-shot commands, info for serve
  bool interactive_approvals = false;  // `call` on a terminal: prompt for approvals
};

struct CallFlags {
  CommonFlags common;
  std::string tool;
  std::optional<std::string> args_json;  // nullopt: read stdin
  std::string session, channel, chat_id, peer_kind, agent, user, provider;
  std::vector<std::string> group_allow;
  int subagent_depth = 0;
  int timeout_ms = 0;
};
int RunCall(const CallFlags& flags);

struct ToolsFlags {
  CommonFlags common;
  std::string agent, user, provider, format = "openai";
  std::vector<std::string> group_allow;
  int subagent_depth = 0;
  bool explain = false;
};
int RunTools(const ToolsFlags& flags);

struct ScrubFlags {
  std::string config;
  std::string file;  // empty or "-": stdin
};
int RunScrub(const ScrubFlags& flags);

struct ServeFlags {
  CommonFlags common;
  std::string listen;
  std::string port_file;
};
int RunServe(const ServeFlags& flags);

// check-command: the exec command analysis as JSON; exit 0 whatever the decision.
struct CheckCommandFlags {
  std::string config;
  std::string agent;
  std::string command;
};
int RunCheckCommand(const CheckCommandFlags& flags);

struct ApprovalsFlags {
  CommonFlags common;
  std::string action;        // list | allow | deny | rules
  std::string id;            // allow/deny: the request id; rules rm: the rule id
  std::string status = "pending";  // list: pending | allowed | denied | expired | all
  bool json = false;         // list: a JSON array instead of the table
  bool always = false;       // allow: allow-always (persist a rule) instead of allow-once
  std::string rules_action = "list";  // rules: list | rm
};
int RunApprovals(const ApprovalsFlags& flags);

// agents list | show ID | set ID [--type] [--key] [--tools JSON|FILE|-] | rm ID  (the store)
struct AgentsFlags {
  CommonFlags common;
  std::string action;  // list | show | set | rm
  std::string id, type, key;
  std::optional<std::string> tools;
};
int RunAgents(const AgentsFlags& flags);

// custom-tools add FILE|- | list | show ID | rm ID | rotate-key --new-key-file FILE [--agent ID]
// Env values are encrypted with CLAWTOOLS_ENCRYPTION_KEY or tools.custom_tools.encryption_key_file.
struct CustomToolsFlags {
  CommonFlags common;
  std::string action;  // add | list | show | rm | rotate-key
  std::string arg;     // add: the JSON file or - (default); show/rm: the id
  std::string agent;   // add: scope to this agent; list: only this agent's tools
  std::string new_key_file;  // rotate-key: the new key (hex, base64 or raw 32 bytes), - = stdin
};
int RunCustomTools(const CustomToolsFlags& flags);

// mcp-stdio: the policy-filtered tools as an MCP server on stdin/stdout.
struct McpStdioFlags {
  CommonFlags common;
  std::string agent, user, provider;
};
int RunMcpStdio(const McpStdioFlags& flags);

// mcp servers list|add NAME|rm NAME; mcp grant agent|user SERVER ID | grant list [SERVER];
// mcp requests list|create SERVER|approve ID|reject ID  (the store)
struct McpFlags {
  CommonFlags common;
  std::string area;    // servers | grant | requests
  std::string action;  // servers: list|add|rm; grant: agent|user|list; requests: list|create|approve|reject
  std::string name;    // server name
  std::string subject; // grant: agent or user id
  std::string id;      // request id
  std::string transport, command, url, tool_prefix;
  std::vector<std::string> args, env, headers;
  int timeout_sec = 0;
  bool disabled = false;
  std::optional<std::string> allow;  // comma-separated; unset: every tool
  std::string deny;                  // comma-separated
  std::string overrides;             // agent grant config_overrides (JSON object)
  bool revoke = false;
  std::string agent, user, reason, by, note, status = "pending";
};
int RunMcp(const McpFlags& flags);

}  // namespace clawtools::cli
