// The template parser, definition validation and, above all, quoting: arbitrary bytes passed
// as arguments must reach the command byte for byte through a real `sh -c`, and nothing else
// may run.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "custom_tools/command_template.h"
#include "custom_tools/custom_tool_def.h"
#include "sandbox/process.h"
#include "sandbox/run.h"

namespace clawtools::custom_tools {
namespace {

// Runs `command` with sh -c and returns its stdout+stderr.
std::string RunShell(const std::string& command, const std::string& cwd) {
  auto proc = sandbox::Process::Spawn(
      {.argv = {"/bin/sh", "-c", command}, .env = {"PATH=/usr/bin:/bin"}, .cwd = cwd});
  EXPECT_TRUE(proc.has_value());
  if (!proc) return {};
  auto out = sandbox::RunToCompletion(
      *proc, {.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20)});
  EXPECT_EQ(out.status.ShellCode(), 0) << out.head;
  return out.head + out.tail;
}

TEST(CommandTemplate, ParsesPlaceholdersWithOptionalSpaces) {
  auto t = CommandTemplate::Parse("dig +short {{.record_type}} {{ .domain }}");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->Placeholders(), (std::set<std::string>{"domain", "record_type"}));
  auto r = t->Render({{"domain", "example.com"}, {"record_type", "MX"}});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, "dig +short 'MX' 'example.com'");
}

TEST(CommandTemplate, RejectsMalformedPlaceholders) {
  for (const char* bad : {"echo {{.}}", "echo {{name}}", "echo {{.a b}}", "echo {{.a", "echo {{",
                          "   ", "echo {{.a$}}"}) {
    EXPECT_FALSE(CommandTemplate::Parse(bad).has_value()) << bad;
  }
  EXPECT_FALSE(CommandTemplate::Parse(std::string("echo \0x", 7)).has_value());
}

TEST(CommandTemplate, NonStringsRenderAsJsonAndAbsentAsNothing) {
  auto t = CommandTemplate::Parse("x {{.n}} {{.b}} {{.o}} {{.missing}}|");
  ASSERT_TRUE(t.has_value());
  auto r = t->Render({{"n", 3.5}, {"b", true}, {"o", Json::array({"a", 1})}});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, "x '3.5' 'true' '[\"a\",1]' |");
}

TEST(CommandTemplate, ValueHoldingAPlaceholderStaysLiteral) {
  // GoClaw substituted repeatedly: a's value was re-scanned and b's quotes broke out.
  auto t = CommandTemplate::Parse("printf '%s\\n' {{.a}} {{.b}}");
  ASSERT_TRUE(t.has_value());
  auto r = t->Render({{"a", "{{.b}}"}, {"b", "'; echo INJECTED; '"}});
  ASSERT_TRUE(r.has_value());
  std::string out = RunShell(*r, "/tmp");
  EXPECT_EQ(out, "{{.b}}\n'; echo INJECTED; '\n");
}

TEST(CommandTemplate, NulInArgumentIsAClearError) {
  auto t = CommandTemplate::Parse("echo {{.a}}");
  ASSERT_TRUE(t.has_value());
  auto r = t->Render({{"a", std::string("x\0y", 3)}});
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().for_model.find("NUL"), std::string::npos);
}

TEST(ShellQuote, EveryNonNulByteArrivesByteForByte) {
  auto dir = std::filesystem::temp_directory_path() / ("ct-quote-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto t = CommandTemplate::Parse("printf '%s\\0' {{.a}} {{.b}} {{.c}}");
  ASSERT_TRUE(t.has_value());

  std::mt19937 rng(12345);
  const std::vector<std::string> nasty = {
      "'", "''", "'\\''", "$(touch pwned)", "`touch pwned`", "\n", "\r\n", "$HOME", "${IFS}",
      ";touch pwned;", "|touch pwned", "&&touch pwned", "\\", "\"", "*", "~", "-n", "--",
      "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\xff\xfe", "{{.b}}", "", " ", "\t"};
  for (int round = 0; round < 150; ++round) {
    std::string v[3];
    for (std::string& s : v) {
      int parts = std::uniform_int_distribution<int>(0, 6)(rng);
      for (int i = 0; i < parts; ++i) {
        if (rng() % 2) {
          s += nasty[rng() % nasty.size()];
        } else {
          s.push_back(static_cast<char>(std::uniform_int_distribution<int>(1, 255)(rng)));
        }
      }
    }
    // Every byte value once across the run.
    if (round < 255) v[round % 3].push_back(static_cast<char>(round + 1));
    auto cmd = t->Render({{"a", v[0]}, {"b", v[1]}, {"c", v[2]}});
    ASSERT_TRUE(cmd.has_value());
    std::string expected = v[0] + '\0' + v[1] + '\0' + v[2] + '\0';
    ASSERT_EQ(RunShell(*cmd, dir.string()), expected) << "round " << round;
  }
  // Full byte coverage in one value.
  std::string all;
  for (int b = 1; b < 256; ++b) all.push_back(static_cast<char>(b));
  auto cmd = t->Render({{"a", all}, {"b", all + "'"}, {"c", "'" + all}});
  ASSERT_TRUE(cmd.has_value());
  EXPECT_EQ(RunShell(*cmd, dir.string()), all + '\0' + all + "'" + '\0' + "'" + all + '\0');
  EXPECT_FALSE(std::filesystem::exists(dir / "pwned"));
  std::filesystem::remove_all(dir);
}

Json DnsLookup() {
  return Json::parse(R"J({
    "name": "dns_lookup",
    "description": "Look up DNS records for a domain",
    "parameters": {"type": "object",
      "properties": {"domain": {"type": "string", "description": "Domain name"},
                     "record_type": {"type": "string", "enum": ["A", "AAAA", "MX", "CNAME", "TXT"]}},
      "required": ["domain"]},
    "command": "dig +short {{.record_type}} {{.domain}}",
    "timeout_seconds": 10,
    "enabled": true})J");
}

TEST(Definition, SeedExampleIsAccepted) {
  auto def = DefinitionFromJson(DnsLookup());
  ASSERT_TRUE(def.has_value()) << def.error().for_model;
  EXPECT_EQ(def->timeout_seconds, 10);
  EXPECT_FALSE(def->agent_id.has_value());
  EXPECT_TRUE(ValidateDefinition(*def, nullptr).has_value());
}

TEST(Definition, DefaultsAndUnknownFields) {
  Json j = DnsLookup();
  j.erase("timeout_seconds");
  auto def = DefinitionFromJson(j);
  ASSERT_TRUE(def.has_value());
  EXPECT_EQ(def->timeout_seconds, 60);
  j["timeout"] = 5;
  EXPECT_FALSE(DefinitionFromJson(j).has_value());
}

TEST(Definition, UnknownPlaceholderRejectedAtDefineTime) {
  Json j = DnsLookup();
  j["command"] = "dig {{.domain}} {{.server}}";
  auto def = DefinitionFromJson(j);
  ASSERT_TRUE(def.has_value());
  auto st = ValidateDefinition(*def, nullptr);
  ASSERT_FALSE(st.has_value());
  EXPECT_NE(st.error().for_model.find("{{.server}}"), std::string::npos);
}

TEST(Definition, ShadowingABuiltinIsRejected) {
  Json j = DnsLookup();
  j["name"] = "exec";
  auto def = DefinitionFromJson(j);
  ASSERT_TRUE(def.has_value());
  auto st = ValidateDefinition(*def, [](std::string_view n) { return n == "exec"; });
  ASSERT_FALSE(st.has_value());
  EXPECT_EQ(st.error().code, ErrorCode::kAlreadyExists);
}

TEST(Definition, Names) {
  for (std::string ok : {std::string("dns_lookup"), std::string("a"), std::string("A-b_9"),
                         std::string(64, 'x')})
    EXPECT_TRUE(IsValidToolName(ok)) << ok;
  for (std::string bad : {std::string(), std::string(65, 'x'), std::string("a b"),
                          std::string("a.b"), std::string("é"), std::string("a/b")})
    EXPECT_FALSE(IsValidToolName(bad)) << bad;
  Json j = DnsLookup();
  j["name"] = "dns lookup";
  EXPECT_FALSE(ValidateDefinition(*DefinitionFromJson(j), nullptr).has_value());
}

TEST(Definition, EnvNamesAndTimeout) {
  Json j = DnsLookup();
  j["env"] = {{"LD_PRELOAD", "x"}};
  EXPECT_FALSE(ValidateDefinition(*DefinitionFromJson(j), nullptr).has_value());
  j["env"] = {{"API_KEY", "x"}};
  EXPECT_TRUE(ValidateDefinition(*DefinitionFromJson(j), nullptr).has_value());
  j["timeout_seconds"] = 0;
  EXPECT_FALSE(DefinitionFromJson(j).has_value());
  j["timeout_seconds"] = 7200;
  EXPECT_FALSE(DefinitionFromJson(j).has_value());
}

TEST(Definition, JsonFormHidesEnvValues) {
  Json j = DnsLookup();
  j["env"] = {{"API_KEY", "supersecretvalue"}};
  Json out = DefinitionToJson(*DefinitionFromJson(j));
  EXPECT_EQ(out["env"]["API_KEY"], "[encrypted]");
  EXPECT_EQ(out.dump().find("supersecretvalue"), std::string::npos);
}

}  // namespace
}  // namespace clawtools::custom_tools
