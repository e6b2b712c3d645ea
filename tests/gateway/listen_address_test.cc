#include "gateway/listen_address.h"

#include <gtest/gtest.h>

namespace clawtools {
namespace {

TEST(ListenAddressTest, ParsesV4V6AndLocalhost) {
  auto v4 = ParseListenAddress("127.0.0.1:18790");
  ASSERT_TRUE(v4);
  EXPECT_EQ(v4->host, "127.0.0.1");
  EXPECT_EQ(v4->port, 18790);
  EXPECT_EQ(v4->ToString(), "127.0.0.1:18790");

  auto v6 = ParseListenAddress("[::1]:0");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->ToString(), "[::1]:0");

  auto local = ParseListenAddress("localhost:80");
  ASSERT_TRUE(local);
  EXPECT_EQ(local->host, "127.0.0.1");
}

TEST(ListenAddressTest, RejectsMalformedAddresses) {
  for (const char* bad :
       {"127.0.0.1", "127.0.0.1:", "127.0.0.1:70000", "127.0.0.1:x", "example.com:80", ":80"}) {
    auto parsed = ParseListenAddress(bad);
    EXPECT_FALSE(parsed) << bad;
    if (!parsed) {
      EXPECT_NE(parsed.error().for_model.find(bad), std::string::npos);
    }
  }
}

TEST(ListenAddressTest, LoopbackDetection) {
  auto loopback = [](const char* text) { return IsLoopback(*ParseListenAddress(text)); };
  EXPECT_TRUE(loopback("127.0.0.1:1"));
  EXPECT_TRUE(loopback("127.8.9.10:1"));
  EXPECT_TRUE(loopback("[::1]:1"));
  EXPECT_TRUE(loopback("[::ffff:127.0.0.1]:1"));
  EXPECT_FALSE(loopback("0.0.0.0:1"));
  EXPECT_FALSE(loopback("[::]:1"));
  EXPECT_FALSE(loopback("192.168.1.2:1"));
  EXPECT_FALSE(loopback("[::ffff:10.0.0.1]:1"));
}

}  // namespace
}  // namespace clawtools
