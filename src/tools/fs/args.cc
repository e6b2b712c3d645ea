#include "tools/fs/args.h"

namespace clawtools {

Expected<std::string> StringArg(const Json& args, const char* key,
                                std::optional<std::string> fallback) {
  if (!args.is_object() || !args.contains(key) || args[key].is_null()) {
    if (fallback) return *fallback;
    return Fail(ErrorCode::kInvalidArgument, std::string(key) + " is required");
  }
  if (!args[key].is_string())
    return Fail(ErrorCode::kInvalidArgument, std::string(key) + " must be a string");
  return args[key].get<std::string>();
}

Expected<int64_t> IntArg(const Json& args, const char* key, int64_t fallback, int64_t min,
                         int64_t max) {
  if (!args.is_object() || !args.contains(key) || args[key].is_null()) return fallback;
  const Json& v = args[key];
  if (!v.is_number_integer() &&
      !(v.is_number_float() &&
        v.get<double>() == static_cast<double>(static_cast<int64_t>(v.get<double>()))))
    return Fail(ErrorCode::kInvalidArgument, std::string(key) + " must be an integer");
  int64_t n = v.is_number_integer() ? v.get<int64_t>() : static_cast<int64_t>(v.get<double>());
  if (n < min || n > max)
    return Fail(ErrorCode::kInvalidArgument, std::string(key) + " must be between " +
                                                 std::to_string(min) + " and " +
                                                 std::to_string(max));
  return n;
}

Expected<bool> BoolArg(const Json& args, const char* key, bool fallback) {
  if (!args.is_object() || !args.contains(key) || args[key].is_null()) return fallback;
  if (!args[key].is_boolean())
    return Fail(ErrorCode::kInvalidArgument, std::string(key) + " must be true or false");
  return args[key].get<bool>();
}

}  // namespace clawtools
