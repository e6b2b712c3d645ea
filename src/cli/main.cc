// clawtools: the command-line entry point. Flag parsing only; each subcommand lives in cmd_*.cc.
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/commands.h"
#include "version.h"

namespace {

using namespace clawtools::cli;

void AddCommon(CLI::App* cmd, CommonFlags& f) {
  cmd->add_option("--config", f.config, "Config file (JSON with comments)");
  cmd->add_option("--workspace", f.workspace, "Workspace directory (overrides the config)");
  cmd->add_option("--db", f.db, "Store: a SQLite path or a postgres:// URL (overrides the config)");
  cmd->add_option("--log-level", f.log_level, "debug|info|warn|error|off");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"clawtools: the tool-execution layer for LLM agents", "clawtools"};
  app.set_version_flag("--version", std::string("clawtools ") + CLAWTOOLS_VERSION);
  app.require_subcommand(1);

  CallFlags call;
  auto* c = app.add_subcommand("call", "Run one tool call through the full pipeline; prints one JSON object");
  AddCommon(c, call.common);
  c->add_option("tool", call.tool, "Tool name")->required();
  c->add_option("args", call.args_json, "Arguments as a JSON object (default: stdin, or {} on a terminal)");
  c->add_option("--session", call.session, "Session key (also the sandbox and rate-limit key)");
  c->add_option("--channel", call.channel, "Channel name");
  c->add_option("--chat-id", call.chat_id, "Chat id");
  c->add_option("--peer-kind", call.peer_kind, "direct|group");
  c->add_option("--agent", call.agent, "Agent id");
  c->add_option("--user", call.user, "User id");
  c->add_option("--provider", call.provider, "LLM provider name (for byProvider policy)");
  c->add_option("--group-allow", call.group_allow, "Per-request allow list entry (repeatable)");
  c->add_option("--subagent-depth", call.subagent_depth, "Subagent depth (0 = main agent)")->check(CLI::NonNegativeNumber);
  c->add_option("--timeout-ms", call.timeout_ms, "Per-call deadline in milliseconds")->check(CLI::NonNegativeNumber);

  ToolsFlags tools;
  auto* t = app.add_subcommand("tools", "Print the tool definitions the model would get (JSON array)");
  AddCommon(t, tools.common);
  t->add_option("--agent", tools.agent, "Agent id");
  t->add_option("--user", tools.user, "User id (selects the user's MCP grants)");
  t->add_option("--provider", tools.provider, "LLM provider name");
  t->add_option("--subagent-depth", tools.subagent_depth, "Subagent depth (0 = main agent)");
  t->add_option("--group-allow", tools.group_allow, "Per-request allow list entry (repeatable)");
  t->add_option("--format", tools.format, "openai|anthropic");
  t->add_flag("--explain", tools.explain, "For every tool: allowed or not, and the policy step and entry that decided");

  ScrubFlags scrub;
  auto* s = app.add_subcommand("scrub", "Redact credentials from FILE (or stdin), streaming to stdout");
  s->add_option("file", scrub.file, "Input file; - or none for stdin");
  s->add_option("--config", scrub.config, "Config whose secret values are redacted too");

  ServeFlags serve;
  auto* v = app.add_subcommand("serve", "Run the HTTP gateway");
  AddCommon(v, serve.common);
  v->add_option("--listen", serve.listen, "HOST:PORT (default from config, 127.0.0.1:18790)");
  v->add_option("--port-file", serve.port_file, "Write the bound port here once listening");

  ApprovalsFlags approvals;
  auto* a = app.add_subcommand("approvals", "Exec approvals: list, allow or deny pending requests; the persisted allowlist");
  a->require_subcommand(1);
  auto* al = a->add_subcommand("list", "Approval requests, newest first");
  AddCommon(al, approvals.common);
  al->add_option("--status", approvals.status, "pending|allowed|denied|expired|all (default pending)");
  al->add_flag("--json", approvals.json, "A JSON array instead of a table");
  al->callback([&] { approvals.action = "list"; });
  auto* aa = a->add_subcommand("allow", "Allow a pending request (once, or --always to persist a rule)");
  AddCommon(aa, approvals.common);
  aa->add_option("id", approvals.id, "Request id (apr_...)")->required();
  aa->add_flag("--always", approvals.always, "allow-always: persist an argv-prefix rule bound to the command and cwd");
  aa->callback([&] { approvals.action = "allow"; });
  auto* ad = a->add_subcommand("deny", "Deny a pending request");
  AddCommon(ad, approvals.common);
  ad->add_option("id", approvals.id, "Request id (apr_...)")->required();
  ad->callback([&] { approvals.action = "deny"; });
  auto* ar = a->add_subcommand("rules", "The persisted allowlist: `rules [list]` or `rules rm ID`");
  AddCommon(ar, approvals.common);
  ar->add_option("action", approvals.rules_action, "list|rm")->check(CLI::IsMember({"list", "rm"}));
  ar->add_option("id", approvals.id, "Rule id (for rm)");
  ar->callback([&] { approvals.action = "rules"; });

  AgentsFlags agents;
  auto* ag = app.add_subcommand("agents", "Agents in the store: list | show ID | set ID | rm ID");
  AddCommon(ag, agents.common);
  ag->add_option("action", agents.action, "list|show|set|rm")->required()->check(CLI::IsMember({"list", "show", "set", "rm"}));
  ag->add_option("id", agents.id, "Agent id");
  ag->add_option("--type", agents.type, "open|predefined");
  ag->add_option("--key", agents.key, "Human-facing agent key");
  ag->add_option("--tools", agents.tools, "Tool policy JSON (inline, a file, or - for stdin); empty clears it");

  CustomToolsFlags custom;
  auto* ct = app.add_subcommand("custom-tools", "Custom tools in the store: add FILE|- | list | show ID | rm ID | rotate-key");
  AddCommon(ct, custom.common);
  ct->add_option("action", custom.action, "add|list|show|rm|rotate-key")->required()->check(CLI::IsMember({"add", "list", "show", "rm", "rotate-key"}));
  ct->add_option("arg", custom.arg, "add: the definition JSON file or - for stdin; show/rm: the id");
  ct->add_option("--agent", custom.agent, "add: the agent the tool belongs to (default global); list: only its tools");
  ct->add_option("--new-key-file", custom.new_key_file, "rotate-key: file with the new key, or - for stdin");

  McpStdioFlags mcp_stdio;
  auto* ms = app.add_subcommand("mcp-stdio", "Serve the policy-filtered tools as an MCP server on stdin/stdout");
  AddCommon(ms, mcp_stdio.common);
  ms->add_option("--agent", mcp_stdio.agent, "Agent id the MCP client acts as (its policy applies)");
  ms->add_option("--user", mcp_stdio.user, "User id the MCP client acts for");
  ms->add_option("--provider", mcp_stdio.provider, "Provider name for byProvider policy");

  McpFlags mcpf;
  auto* mc = app.add_subcommand("mcp", "MCP servers, grants and access requests in the store");
  mc->require_subcommand(1);
  auto* msv = mc->add_subcommand("servers", "servers list | add NAME | rm NAME");
  AddCommon(msv, mcpf.common);
  msv->add_option("action", mcpf.action, "list|add|rm")->required()->check(CLI::IsMember({"list", "add", "rm"}));
  msv->add_option("name", mcpf.name, "Server name");
  msv->add_option("--transport", mcpf.transport, "stdio|sse|streamable-http (default: stdio with --command, else streamable-http)");
  msv->add_option("--command", mcpf.command, "stdio: the program");
  msv->add_option("--arg", mcpf.args, "stdio: an argument (repeatable)");
  msv->add_option("--url", mcpf.url, "HTTP transports: the endpoint");
  msv->add_option("--env", mcpf.env, "KEY=VALUE for the server's environment (repeatable)");
  msv->add_option("--header", mcpf.headers, "KEY=VALUE HTTP header (repeatable)");
  msv->add_option("--prefix", mcpf.tool_prefix, "Tool name prefix (default mcp_<name>)");
  msv->add_option("--timeout-sec", mcpf.timeout_sec, "Per-call timeout");
  msv->add_flag("--disabled", mcpf.disabled, "Store it disabled");
  msv->callback([&] { mcpf.area = "servers"; });
  auto* mg = mc->add_subcommand("grant", "grant agent SERVER AGENT | grant user SERVER USER | grant list [SERVER]");
  AddCommon(mg, mcpf.common);
  mg->add_option("kind", mcpf.action, "agent|user|list")->required()->check(CLI::IsMember({"agent", "user", "list"}));
  mg->add_option("server", mcpf.name, "Server name");
  mg->add_option("subject", mcpf.subject, "Agent or user id");
  mg->add_option("--allow", mcpf.allow, "Comma-separated tools to allow (default: all)");
  mg->add_option("--deny", mcpf.deny, "Comma-separated tools to deny (deny wins)");
  mg->add_option("--overrides", mcpf.overrides, "Agent grants: config_overrides JSON ({\"env\":{},\"headers\":{},...})");
  mg->add_flag("--disabled", mcpf.disabled, "Store the grant disabled");
  mg->add_flag("--revoke", mcpf.revoke, "Remove the grant");
  mg->add_option("--by", mcpf.by, "Recorded as granted_by");
  mg->callback([&] { mcpf.area = "grant"; });
  auto* mr = mc->add_subcommand("requests", "requests list | create SERVER --agent A|--user U | approve ID | reject ID");
  AddCommon(mr, mcpf.common);
  mr->add_option("action", mcpf.action, "list|create|approve|reject")->required()->check(CLI::IsMember({"list", "create", "approve", "reject"}));
  mr->add_option("target", mcpf.id, "create: the server; approve/reject: the request id");
  mr->add_option("--agent", mcpf.agent, "create: agent-scope request for this agent");
  mr->add_option("--user", mcpf.user, "create: user-scope request for this user");
  mr->add_option("--tools", mcpf.allow, "create: comma-separated tools asked for (default: all)");
  mr->add_option("--reason", mcpf.reason, "create: why");
  mr->add_option("--by", mcpf.by, "Requester (create) or reviewer (approve/reject)");
  mr->add_option("--note", mcpf.note, "approve/reject: review note");
  mr->add_option("--status", mcpf.status, "list: pending|approved|rejected|all (default pending)");
  mr->callback([&] { mcpf.area = "requests"; });

  CheckCommandFlags check;
  auto* k = app.add_subcommand("check-command", "Analyze a shell command: allow, deny or ask, with the rule that decided");
  k->add_option("command", check.command, "The command, as one argument")->required();
  k->add_option("--config", check.config, "Config file (tools.exec and the agent's tools.exec deny groups)");
  k->add_option("--agent", check.agent, "Agent id whose deny-group overrides apply");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }

  if (*c) return RunCall(call);
  if (*t) return RunTools(tools);
  if (*s) return RunScrub(scrub);
  if (*v) return RunServe(serve);
  if (*k) return RunCheckCommand(check);
  if (*ms) return RunMcpStdio(mcp_stdio);
  if (*mc) {
    if (mcpf.area == "requests" && mcpf.action == "create") std::swap(mcpf.name, mcpf.id);
    bool named = mcpf.area == "servers" ? mcpf.action == "list" || !mcpf.name.empty()
               : mcpf.area == "grant"   ? mcpf.action == "list" || (!mcpf.name.empty() && !mcpf.subject.empty())
               : mcpf.action == "list" || !(mcpf.action == "create" ? mcpf.name : mcpf.id).empty();
    if (!named || (mcpf.action == "create" && mcpf.agent.empty() == mcpf.user.empty())) {
      std::cerr << "clawtools mcp " << mcpf.area << " " << mcpf.action
                << ": missing or conflicting arguments (see --help)\n";
      return kExitUsage;
    }
    return RunMcp(mcpf);
  }
  if (*ag) return RunAgents(agents);
  if (*ct) {
    if ((custom.action == "show" || custom.action == "rm") && custom.arg.empty()) {
      std::cerr << "clawtools custom-tools " << custom.action << ": ID is required\n";
      return kExitUsage;
    }
    if (custom.action == "rotate-key" && custom.new_key_file.empty()) {
      std::cerr << "clawtools custom-tools rotate-key: --new-key-file is required\n";
      return kExitUsage;
    }
    return RunCustomTools(custom);
  }
  if (*a) {
    if (approvals.action == "rules" && approvals.rules_action == "rm" && approvals.id.empty()) {
      std::cerr << "clawtools approvals rules rm: ID is required\n";
      return kExitUsage;
    }
    return RunApprovals(approvals);
  }
  return kExitUsage;
}
