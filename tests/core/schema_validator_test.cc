#include "core/schema_validator.h"

#include <gtest/gtest.h>

namespace clawtools {
namespace {

std::string Check(const Json& schema, const Json& value) {
  return FormatViolations(ValidateSchema(schema, value));
}

TEST(SchemaValidator, Types) {
  EXPECT_EQ(Check({{"type", "string"}}, "x"), "");
  EXPECT_EQ(Check({{"type", "string"}}, 1), "args: expected string, got integer");
  EXPECT_EQ(Check({{"type", "integer"}}, 3.0), "");
  EXPECT_EQ(Check({{"type", "integer"}}, 3.5), "args: expected integer, got number");
  EXPECT_EQ(Check({{"type", "number"}}, 3), "");
  EXPECT_EQ(Check({{"type", {"string", "null"}}}, nullptr), "");
  EXPECT_EQ(Check({{"type", "boolean"}}, "true"), "args: expected boolean, got string");
}

TEST(SchemaValidator, ObjectsNameEveryField) {
  Json s = {{"type", "object"},
            {"properties", {{"a", {{"type", "string"}}}, {"b", {{"type", "object"}, {"properties", {{"c", {{"type", "integer"}}}}}}}}},
            {"required", {"a"}},
            {"additionalProperties", false}};
  EXPECT_EQ(Check(s, {{"a", "x"}}), "");
  EXPECT_EQ(Check(s, {{"b", {{"c", "no"}}}, {"zz", 1}}),
            "args.a: required property missing; args.b.c: expected integer, got string; args.zz: unknown key");
}

TEST(SchemaValidator, StringsNumbersArrays) {
  EXPECT_NE(Check({{"type", "string"}, {"minLength", 2}}, "é"), "");
  EXPECT_EQ(Check({{"type", "string"}, {"maxLength", 1}}, "é"), "");  // code points, not bytes
  EXPECT_EQ(Check({{"type", "string"}, {"pattern", "^[a-z]+$"}}, "abc"), "");
  EXPECT_NE(Check({{"type", "string"}, {"pattern", "^[a-z]+$"}}, "ab1"), "");
  EXPECT_NE(Check({{"enum", {"A", "MX"}}}, "TXT"), "");
  EXPECT_NE(Check({{"minimum", 1}}, 0), "");
  EXPECT_NE(Check({{"exclusiveMaximum", 1}}, 1), "");
  EXPECT_NE(Check({{"multipleOf", 3}}, 7), "");
  EXPECT_EQ(Check({{"type", "array"}, {"items", {{"type", "integer"}}}}, Json::array({1, 2})), "");
  EXPECT_EQ(Check({{"type", "array"}, {"items", {{"type", "integer"}}}}, Json::array({1, "x"})),
            "args[1]: expected integer, got string");
  EXPECT_NE(Check({{"type", "array"}, {"uniqueItems", true}}, Json::array({1, 1})), "");
  EXPECT_NE(Check({{"type", "array"}, {"maxItems", 1}}, Json::array({1, 2})), "");
}

TEST(SchemaValidator, Combinators) {
  Json any = {{"anyOf", {{{"type", "string"}}, {{"type", "integer"}}}}};
  EXPECT_EQ(Check(any, 1), "");
  EXPECT_NE(Check(any, true), "");
  Json one = {{"oneOf", {{{"type", "number"}}, {{"type", "integer"}}}}};
  EXPECT_NE(Check(one, 1), "");  // both match
  EXPECT_EQ(Check(one, 1.5), "");
  EXPECT_NE(Check({{"not", {{"type", "null"}}}}, nullptr), "");
}

TEST(SchemaValidator, MalformedSchemasAndDeepValuesDoNotCrash) {
  EXPECT_EQ(Check({{"type", 5}}, 1), "");
  EXPECT_EQ(Check({{"pattern", "(unclosed"}, {"type", "string"}}, "x"), "");
  Json deep = Json::array();
  Json* cur = &deep;
  for (int i = 0; i < 200; ++i) {
    cur->push_back(Json::array());
    cur = &(*cur)[0];
  }
  EXPECT_EQ(Check({{"type", "array"}}, deep), "");
  Json many = Json::object();
  for (int i = 0; i < 100; ++i) many["k" + std::to_string(i)] = 1;
  auto v = ValidateSchema({{"type", "object"}, {"additionalProperties", false}}, many);
  EXPECT_EQ(v.size(), 32u);  // capped
}

}  // namespace
}  // namespace clawtools
