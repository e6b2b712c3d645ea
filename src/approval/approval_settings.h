// The approval modes, as GoClaw's `tools.execApproval`: security deny|allowlist|full and ask
// off|on-miss|always, plus the static allowlist and the timeout.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>
#include <vector>

#include "approval/prefix_rule.h"
#include "config/config.h"
#include "core/error.h"

namespace clawtools {

enum class ExecSecurity { kDeny, kAllowlist, kFull };
enum class ExecAsk { kOff, kOnMiss, kAlways };

std::optional<ExecSecurity> ParseExecSecurity(std::string_view s);
std::optional<ExecAsk> ParseExecAsk(std::string_view s);

struct ApprovalSettings {
  // GoClaw's defaults: everything the analyser allows runs without asking.
  ExecSecurity security = ExecSecurity::kFull;
  ExecAsk ask = ExecAsk::kOff;
  std::vector<PrefixRule> static_rules;  // source "config", every agent, any cwd
  std::chrono::milliseconds timeout = std::chrono::minutes(2);
  // How often a waiting call re-reads its request, to see decisions made by other processes
  // (decisions made in this process wake it at once).
  std::chrono::milliseconds poll_interval = std::chrono::milliseconds(200);
};

// From tools.execApproval {security, ask, allowlist[], timeout_sec}. An allowlist pattern that
// does not parse or that ValidatePrefix refuses fails the load, naming the pattern.
Expected<ApprovalSettings> ApprovalSettingsFromConfig(const Config& config);

}  // namespace clawtools
