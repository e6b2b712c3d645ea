#include "gateway/sse.h"

#include <gtest/gtest.h>

namespace clawtools {
namespace {

TEST(Sse, FormatsOneRecord) {
  EXPECT_EQ(FormatSseEvent(7, "approval.requested", R"({"id":"apr_1"})"),
            "id: 7\nevent: approval.requested\ndata: {\"id\":\"apr_1\"}\n\n");
}

TEST(Sse, NoIdLineForZero) {
  EXPECT_EQ(FormatSseEvent(0, "events.dropped", "{}"), "event: events.dropped\ndata: {}\n\n");
}

TEST(Sse, MultiLineDataCannotForgeFields) {
  EXPECT_EQ(FormatSseEvent(1, "x\nevent: y", "a\nevent: evil\r\nb\rc"),
            "id: 1\nevent: x event: y\ndata: a\ndata: event: evil\ndata: b\ndata: c\n\n");
  EXPECT_EQ(FormatSseEvent(1, "x", ""), "id: 1\nevent: x\ndata: \n\n");
}

}  // namespace
}  // namespace clawtools
