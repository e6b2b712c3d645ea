#include "gateway/outcome_json.h"

#include <gtest/gtest.h>

namespace clawtools {
namespace {

TEST(OutcomeJsonTest, HasExactlyTheCliFields) {
  CallOutcome outcome{.tool = "echo",
                      .result = Result::Fail("bad input"),
                      .duration = std::chrono::microseconds(123)};
  outcome.result.for_user = "shown";
  Json j = OutcomeToJson(outcome);
  EXPECT_EQ(j, (Json{{"tool", "echo"},
                     {"for_llm", "bad input"},
                     {"for_user", "shown"},
                     {"is_error", true},
                     {"duration_ms", 0.123}}));
  EXPECT_TRUE(j["duration_ms"].is_number_float());
}

TEST(OutcomeJsonTest, DurationKeepsMicroseconds) {
  CallOutcome outcome{.tool = "t", .duration = std::chrono::microseconds(2'500'001)};
  EXPECT_DOUBLE_EQ(OutcomeToJson(outcome)["duration_ms"].get<double>(), 2500.001);
  EXPECT_EQ(OutcomeToJson(outcome)["for_user"], "");
  EXPECT_EQ(OutcomeToJson(outcome)["is_error"], false);
}

}  // namespace
}  // namespace clawtools
