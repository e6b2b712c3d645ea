// `clawtools approvals ...`: the exec approval queue and the persisted allowlist, read and
// decided straight in the store, so it works beside a running gateway (which polls its
// pending requests) and against a PostgreSQL shared by several gateways.
#include <charconv>
#include <cstdlib>
#include <iostream>

#include "approval/approval_store.h"
#include "cli/commands.h"
#include "config/config.h"
#include "store/store.h"

namespace clawtools::cli {
namespace {

Expected<std::unique_ptr<store::Store>> OpenConfiguredStore(const CommonFlags& flags) {
  auto config =
      flags.config.empty() ? Config::Parse("{}", "defaults") : Config::LoadFile(flags.config);
  if (!config) return std::unexpected(config.error());
  if (!flags.db.empty()) config->SetOverride("/db", flags.db);
  return store::OpenStore(config->db_url());
}

std::string Who() {
  const char* user = std::getenv("USER");
  return std::string("cli") + (user && *user ? std::string(":") + user : "");
}

void PrintTable(const std::vector<ApprovalRequest>& list) {
  for (const auto& a : list) {
    std::cout << a.id << "  " << ApprovalStatusName(a.status)
              << "  agent=" << (a.agent_id.empty() ? "-" : a.agent_id) << "  cwd=" << a.cwd
              << "\n    " << a.canonical << "\n";
    if (!a.reason.empty()) std::cout << "    why: " << a.reason << "\n";
  }
}

int Report(const Error& e) {
  std::cerr << "clawtools approvals: " << e.log_message() << "\n";
  return kExitFailure;
}

}  // namespace

int RunApprovals(const ApprovalsFlags& flags) {
  std::optional<ApprovalStatus> status;
  if (flags.action == "list" && flags.status != "all") {
    status = ParseApprovalStatus(flags.status);
    if (!status) {
      std::cerr << "clawtools approvals list: --status must be pending, allowed, denied, expired "
                   "or all\n";
      return kExitUsage;
    }
  }
  auto opened = OpenConfiguredStore(flags.common);
  if (!opened) return Report(opened.error());
  ApprovalStore approvals(**opened);

  if (flags.action == "list") {
    auto list = approvals.List(status);
    if (!list) return Report(list.error());
    if (flags.json) {
      Json out = Json::array();
      for (const auto& a : *list) out.push_back(a.ToJson());
      std::cout << out.dump() << "\n";
    } else {
      PrintTable(*list);
    }
    return kExitOk;
  }
  if (flags.action == "allow" || flags.action == "deny") {
    ApprovalDecision decision = flags.action == "deny" ? ApprovalDecision::kDeny
                                : flags.always         ? ApprovalDecision::kAllowAlways
                                                       : ApprovalDecision::kAllowOnce;
    auto decided = approvals.Decide(flags.id, decision, Who());
    if (!decided) return Report(decided.error());
    std::cout << decided->ToJson().dump() << "\n";
    return kExitOk;
  }
  if (flags.action == "rules") {
    if (flags.rules_action == "rm") {
      int64_t id = 0;
      auto [end, ec] = std::from_chars(flags.id.data(), flags.id.data() + flags.id.size(), id);
      if (ec != std::errc() || end != flags.id.data() + flags.id.size() || id <= 0) {
        std::cerr << "clawtools approvals rules rm: ID must be a positive integer\n";
        return kExitUsage;
      }
      if (auto removed = approvals.RemoveRule(id); !removed) return Report(removed.error());
      return kExitOk;
    }
    auto rules = approvals.Rules(std::nullopt);
    if (!rules) return Report(rules.error());
    Json out = Json::array();
    for (const auto& r : *rules) out.push_back(r.ToJson());
    std::cout << out.dump() << "\n";
    return kExitOk;
  }
  return kExitUsage;
}

}  // namespace clawtools::cli
