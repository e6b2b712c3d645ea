#include "gateway/router.h"

#include <gtest/gtest.h>

namespace clawtools {
namespace {

HttpHandler Answer(int status) {
  return [status](const HttpRequest&) { return HttpResponse{.status = status}; };
}

TEST(RouterTest, MatchesLiteralAndCapturedSegments) {
  Router router;
  router.Add("GET", "/v1/tools", Answer(1));
  router.Add("POST", "/v1/tools/{name}/invoke", Answer(2), {.blocking = true});

  RouteMatch list = router.Match("GET", "/v1/tools");
  ASSERT_NE(list.route, nullptr);
  EXPECT_EQ(list.route->handler(HttpRequest{}).status, 1);

  RouteMatch invoke = router.Match("POST", "/v1/tools/read%5Ffile/invoke");
  ASSERT_NE(invoke.route, nullptr);
  EXPECT_TRUE(invoke.route->traits.blocking);
  EXPECT_EQ(invoke.params.at("name"), "read_file");
}

TEST(RouterTest, UnknownPathHasNoRouteAndNoAllowedMethods) {
  Router router;
  router.Add("GET", "/v1/tools", Answer(1));
  for (const char* path : {"/", "/v1", "/v1/tools/", "/v1/toolsx", "/v1/tools/x"}) {
    RouteMatch m = router.Match("GET", path);
    EXPECT_EQ(m.route, nullptr) << path;
    EXPECT_TRUE(m.allowed_methods.empty()) << path;
  }
}

TEST(RouterTest, WrongMethodReportsAllowedMethods) {
  Router router;
  router.Add("POST", "/v1/tools/{name}/invoke", Answer(2));
  router.Add("DELETE", "/v1/tools/{name}/invoke", Answer(3));
  RouteMatch m = router.Match("GET", "/v1/tools/echo/invoke");
  EXPECT_EQ(m.route, nullptr);
  EXPECT_EQ(m.allowed_methods, (std::vector<std::string>{"POST", "DELETE"}));
}

TEST(RouterTest, CaptureNeedsANonEmptySegment) {
  Router router;
  router.Add("POST", "/v1/tools/{name}/invoke", Answer(2));
  EXPECT_EQ(router.Match("POST", "/v1/tools//invoke").route, nullptr);
  // An encoded slash stays inside the capture instead of adding a segment.
  RouteMatch m = router.Match("POST", "/v1/tools/a%2Fb/invoke");
  ASSERT_NE(m.route, nullptr);
  EXPECT_EQ(m.params.at("name"), "a/b");
}

TEST(RouterTest, MalformedEscapeInCaptureIsFlagged) {
  Router router;
  router.Add("POST", "/v1/tools/{name}/invoke", Answer(2));
  RouteMatch m = router.Match("POST", "/v1/tools/bad%zz/invoke");
  ASSERT_NE(m.route, nullptr);
  EXPECT_TRUE(m.bad_escape);
}

}  // namespace
}  // namespace clawtools
