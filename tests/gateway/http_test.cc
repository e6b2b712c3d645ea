#include "gateway/http.h"

#include <gtest/gtest.h>

namespace clawtools {
namespace {

TEST(HttpTest, ParseTargetSplitsPathAndDecodesQuery) {
  HttpRequest request;
  ASSERT_TRUE(ParseTarget("/v1/tools?agent=a%20b&format=anthropic&explain&x=1+2", request));
  EXPECT_EQ(request.path, "/v1/tools");
  EXPECT_EQ(request.Query("agent"), "a b");
  EXPECT_EQ(request.Query("format"), "anthropic");
  EXPECT_EQ(request.Query("explain"), "");
  EXPECT_EQ(request.Query("x"), "1 2");
  EXPECT_EQ(request.Query("missing"), std::nullopt);
}

TEST(HttpTest, ParseTargetRejectsBadTargets) {
  HttpRequest request;
  EXPECT_FALSE(ParseTarget("", request));
  EXPECT_FALSE(ParseTarget("http://example.com/", request));
  EXPECT_FALSE(ParseTarget("/x?a=%4", request));
  EXPECT_FALSE(ParseTarget("/x?a=%g0", request));
}

TEST(HttpTest, PercentDecodeKeepsPlusOutsideQueries) {
  EXPECT_EQ(PercentDecode("a+b%2B", false), "a+b+");
  EXPECT_EQ(PercentDecode("a+b%2B", true), "a b+");
  EXPECT_EQ(PercentDecode("%", false), std::nullopt);
}

TEST(HttpTest, HeaderLookupIgnoresCase) {
  HttpRequest request;
  request.headers = {{"Authorization", "Bearer x"}};
  EXPECT_EQ(request.Header("authorization"), "Bearer x");
  EXPECT_EQ(request.Header("AUTHORIZATION"), "Bearer x");
  EXPECT_EQ(request.Header("Authorizatio"), "");
}

TEST(HttpTest, JsonResponseSurvivesInvalidUtf8) {
  HttpResponse r = JsonResponse(200, Json{{"out", std::string("ok\xff")}});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_TRUE(Json::parse(r.body, nullptr, false).is_object()) << r.body;
  EXPECT_EQ(ErrorResponse(404, "nope").body, R"({"error":"nope"})");
}

}  // namespace
}  // namespace clawtools
