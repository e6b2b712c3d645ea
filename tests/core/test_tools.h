// Small tools for pipeline tests.
#pragma once

#include <atomic>
#include <functional>
#include <stdexcept>

#include "core/tool.h"

namespace clawtools::testing {

class LambdaTool : public SimpleTool {
 public:
  using Fn = std::function<Result(const CallContext&, const Json&)>;
  LambdaTool(std::string name, Json params, Fn fn)
      : SimpleTool(std::move(name), "test tool", std::move(params)), fn_(std::move(fn)) {}
  Result Execute(const CallContext& ctx, const Json& args) const override {
    ++calls;
    return fn_(ctx, args);
  }
  mutable std::atomic<int> calls{0};

 private:
  Fn fn_;
};

inline Json ObjectSchema(Json props = Json::object(), Json required = Json::array()) {
  return {{"type", "object"}, {"properties", std::move(props)}, {"required", std::move(required)}};
}

}  // namespace clawtools::testing
