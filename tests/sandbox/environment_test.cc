#include "sandbox/environment.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace clawtools::sandbox {
namespace {

bool Has(const std::vector<std::string>& env, std::string_view prefix) {
  return std::any_of(env.begin(), env.end(),
                     [&](const std::string& kv) { return kv.starts_with(prefix); });
}

TEST(Environment, HostKeepsOnlyTheAllowlist) {
  const char* parent[] = {"PATH=/bin",
                          "HOME=/root",
                          "LC_ALL=C",
                          "OPENAI_API_KEY=sk-x",
                          "CLAWTOOLS_TOKEN=t",
                          "CLAWTOOLS_ENCRYPTION_KEY=k",
                          "DATABASE_URL=postgres://u:p@h/d",
                          "LD_PRELOAD=/x.so",
                          nullptr};
  auto env =
      HostEnvironment(const_cast<char**>(parent), {{"FOO", "bar"}, {"LD_LIBRARY_PATH", "/evil"}});
  EXPECT_TRUE(Has(env, "PATH=/bin"));
  EXPECT_TRUE(Has(env, "HOME=/root"));
  EXPECT_TRUE(Has(env, "LC_ALL=C"));
  EXPECT_TRUE(Has(env, "FOO=bar"));
  for (auto bad :
       {"OPENAI_API_KEY", "CLAWTOOLS_TOKEN", "CLAWTOOLS_ENCRYPTION_KEY", "DATABASE_URL", "LD_"})
    EXPECT_FALSE(Has(env, bad)) << bad;
}

TEST(Environment, SandboxIsFixedPlusConfigured) {
  auto env = SandboxEnvironment({{"MY_VAR", "1"}});
  EXPECT_TRUE(Has(env, "HOME=/workspace"));
  EXPECT_TRUE(Has(env, "MY_VAR=1"));
  EXPECT_EQ(env.size(), 6u);
}

}  // namespace
}  // namespace clawtools::sandbox
