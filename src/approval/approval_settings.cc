#include "approval/approval_settings.h"

namespace clawtools {

std::optional<ExecSecurity> ParseExecSecurity(std::string_view s) {
  if (s == "deny") return ExecSecurity::kDeny;
  if (s == "allowlist") return ExecSecurity::kAllowlist;
  if (s == "full") return ExecSecurity::kFull;
  return std::nullopt;
}

std::optional<ExecAsk> ParseExecAsk(std::string_view s) {
  if (s == "off") return ExecAsk::kOff;
  if (s == "on-miss") return ExecAsk::kOnMiss;
  if (s == "always") return ExecAsk::kAlways;
  return std::nullopt;
}

Expected<ApprovalSettings> ApprovalSettingsFromConfig(const Config& config) {
  ApprovalSettings settings;
  const Json& section =
      config.root().value(Json::json_pointer("/tools/execApproval"), Json::object());
  // The schema already restricts the values; unknown ones fail closed here rather than
  // falling back to GoClaw's "unknown means allow".
  if (auto s = section.value("security", "full"); auto parsed = ParseExecSecurity(s)) {
    settings.security = *parsed;
  } else {
    return Fail(ErrorCode::kInvalidArgument, "tools.execApproval.security: unknown value " + s);
  }
  if (auto a = section.value("ask", "off"); auto parsed = ParseExecAsk(a)) {
    settings.ask = *parsed;
  } else {
    return Fail(ErrorCode::kInvalidArgument, "tools.execApproval.ask: unknown value " + a);
  }
  if (int t = section.value("timeout_sec", 0); t > 0) settings.timeout = std::chrono::seconds(t);
  const Json& patterns = section.value("allowlist", Json::array());
  for (size_t i = 0; i < patterns.size(); ++i) {
    std::string pattern = patterns[i].get<std::string>();
    std::string where =
        "tools.execApproval.allowlist[" + std::to_string(i) + "] \"" + pattern + "\": ";
    auto words = ParsePattern(pattern);
    if (!words) return Fail(ErrorCode::kInvalidArgument, where + words.error().for_model);
    if (auto valid = ValidatePrefix(*words); !valid) {
      return Fail(ErrorCode::kInvalidArgument, where + valid.error().for_model);
    }
    settings.static_rules.push_back(
        PrefixRule{.argv_prefix = std::move(*words), .source = "config"});
  }
  return settings;
}

}  // namespace clawtools
