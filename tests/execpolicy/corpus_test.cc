// The corpus: every dangerous command must be stopped by the expected group (deny; ask for
// package_install), every harmless look-alike must be allowed. Prints both rates.
#include "corpus.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "execpolicy/command_analysis.h"

namespace clawtools::execpolicy {
namespace {

Decision Expected(std::string_view group) {
  return group == "package_install" ? Decision::kAsk : Decision::kDeny;
}

TEST(CorpusTest, DetectsDangerousAndAllowsHarmless) {
  const auto& dangerous = corpus::DangerousCommands();
  const auto& harmless = corpus::HarmlessCommands();
  size_t detected = 0, allowed = 0;
  for (const auto& d : dangerous) {
    Analysis a = AnalyzeCommand(d.command);
    const bool group_ok = a.rule.starts_with(std::string(d.group) + ".");
    if (a.decision == Expected(d.group) && group_ok) {
      ++detected;
    } else {
      ADD_FAILURE() << "dangerous: " << d.command << "\n  expected "
                    << DecisionName(Expected(d.group)) << " by " << d.group << ", got "
                    << DecisionName(a.decision) << " " << a.rule << " (" << a.reason
                    << ") matched: " << a.matched;
    }
  }
  for (const auto& h : harmless) {
    Analysis a = AnalyzeCommand(h);
    if (a.decision == Decision::kAllow) {
      ++allowed;
    } else {
      ADD_FAILURE() << "harmless: " << h << "\n  got " << DecisionName(a.decision) << " " << a.rule
                    << " (" << a.reason << ") matched: " << a.matched;
    }
  }
  std::printf("detected %zu/%zu dangerous, allowed %zu/%zu harmless\n", detected, dangerous.size(),
              allowed, harmless.size());
  EXPECT_GE(dangerous.size(), 200u);
  EXPECT_GE(harmless.size(), 100u);
  EXPECT_EQ(detected, dangerous.size());
  EXPECT_EQ(allowed, harmless.size());
}

// Every group of the seed's table and of GoClaw's fifteen has corpus entries.
TEST(CorpusTest, CoversEveryGroup) {
  for (std::string_view g :
       {"destructive_fs", "disk", "system_control", "fork_bomb", "remote_exec", "reverse_shell",
        "eval_injection", "privilege_escalation", "env_dump", "secret_read", "dangerous_paths",
        "package_install", "persistence", "container_escape", "code_injection_env",
        "data_exfiltration", "network_recon", "crypto_mining", "process_control"}) {
    size_t n = 0;
    for (const auto& d : corpus::DangerousCommands()) n += d.group == g;
    EXPECT_GE(n, 2u) << g;
  }
}

}  // namespace
}  // namespace clawtools::execpolicy
