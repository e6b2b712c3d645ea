#include "sandbox/byte_ring.h"

#include <gtest/gtest.h>

namespace clawtools::sandbox {
namespace {

TEST(ByteRing, KeepsTheLastBytesWithAbsoluteOffsets) {
  ByteRing r(8);
  r.Append("abcdef");
  EXPECT_EQ(r.Contents(), "abcdef");
  r.Append("ghijk");
  EXPECT_EQ(r.end(), 11u);
  EXPECT_EQ(r.begin(), 3u);
  EXPECT_EQ(r.Contents(), "defghijk");
  auto s = r.Read(5, 3);
  EXPECT_EQ(s.data, "fgh");
  EXPECT_EQ(s.offset, 5u);
  EXPECT_EQ(s.dropped, 0u);
}

TEST(ByteRing, ReadingScrolledOutDataSaysHowMuchWasMissed) {
  ByteRing r(4);
  r.Append("0123456789");
  auto s = r.Read(2, 100);
  EXPECT_EQ(s.dropped, 4u);
  EXPECT_EQ(s.offset, 6u);
  EXPECT_EQ(s.data, "6789");
  EXPECT_EQ(r.Read(10, 5).data, "");
  EXPECT_EQ(r.Read(99, 5).offset, 10u);
}

TEST(ByteRing, ManySmallAppendsWrapCorrectly) {
  ByteRing r(7);
  std::string all;
  for (int i = 0; i < 100; ++i) {
    std::string piece(1 + i % 3, static_cast<char>('a' + i % 26));
    r.Append(piece);
    all += piece;
  }
  EXPECT_EQ(r.Contents(), all.substr(all.size() - 7));
  EXPECT_EQ(r.Read(all.size() - 5, 2).data, all.substr(all.size() - 5, 2));
}

}  // namespace
}  // namespace clawtools::sandbox
