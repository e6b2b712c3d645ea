#include "core/provider_defs.h"

#include <gtest/gtest.h>

#include "test_tools.h"

namespace clawtools {
namespace {

TEST(ProviderDefs, OpenAIAndAnthropicShapes) {
  testing::LambdaTool tool("read_file", {{"type", "object"}, {"properties", {{"path", {{"type", "string"}, {"$ref", "#/x"}}}}}},
                           [](const CallContext&, const Json&) { return Result::Text(""); });
  Json o = OpenAIToolDef(tool);
  EXPECT_EQ(o["type"], "function");
  EXPECT_EQ(o["function"]["name"], "read_file");
  EXPECT_EQ(o["function"]["parameters"]["type"], "object");
  Json a = AnthropicToolDef(tool, "Read");
  EXPECT_EQ(a["name"], "Read");
  EXPECT_EQ(a["description"], "test tool");
  EXPECT_FALSE(a["input_schema"]["properties"]["path"].contains("$ref"));
}

TEST(ProviderDefs, NormalizesMissingSchemaParts) {
  EXPECT_EQ(NormalizeParameters(Json()), Json({{"type", "object"}, {"properties", Json::object()}}));
  EXPECT_EQ(NormalizeParameters({{"type", "object"}})["properties"], Json::object());
}

}  // namespace
}  // namespace clawtools
