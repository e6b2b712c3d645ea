// Errors are values. An Error carries two messages: one safe and useful for the model
// (no internal paths, no secrets), and one with detail for the operator's logs.
#pragma once

#include <expected>
#include <string>
#include <utility>

namespace clawtools {

enum class ErrorCode {
  kInvalidArgument,   // the caller (model or user) sent something malformed
  kNotFound,          // unknown tool, file, key, ...
  kPermissionDenied,  // policy, path security, approval denied
  kRateLimited,
  kDeadlineExceeded,
  kCancelled,
  kUnavailable,       // a backend (store, MCP server, sandbox) cannot be reached
  kAlreadyExists,
  kInternal,
};

const char* ErrorCodeName(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string for_model;  // shown to the LLM / API caller
  std::string for_log;    // operator detail; defaults to for_model when empty

  const std::string& log_message() const { return for_log.empty() ? for_model : for_log; }
};

inline Error MakeError(ErrorCode code, std::string for_model, std::string for_log = {}) {
  return Error{code, std::move(for_model), std::move(for_log)};
}

template <class T>
using Expected = std::expected<T, Error>;

using Status = std::expected<void, Error>;

inline std::unexpected<Error> Fail(ErrorCode code, std::string for_model, std::string for_log = {}) {
  return std::unexpected(MakeError(code, std::move(for_model), std::move(for_log)));
}

}  // namespace clawtools
