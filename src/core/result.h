// Result of one tool call: what goes back to the model (for_llm) and, optionally, to the user.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace clawtools {

struct MediaFile {
  std::string path;
  std::string mime_type;
};

struct Result {
  std::string for_llm;   // content of the role:"tool" message
  std::string for_user;  // optional user-visible text
  bool is_error = false;
  bool silent = false;  // suppress the user message
  bool async = false;   // the tool goes on in the background
  std::vector<MediaFile> media;
  // Set on errors produced by the pipeline or a tool, for logs and HTTP status mapping.
  std::optional<ErrorCode> error_code;

  static Result Text(std::string s) { return Result{.for_llm = std::move(s)}; }
  static Result User(std::string s) {
    Result r{.for_llm = s};
    r.for_user = std::move(s);
    return r;
  }
  static Result Silent(std::string s) { return Result{.for_llm = std::move(s), .silent = true}; }
  static Result Async(std::string s) { return Result{.for_llm = std::move(s), .async = true}; }
  static Result Fail(std::string s, ErrorCode code = ErrorCode::kInvalidArgument) {
    return Result{.for_llm = std::move(s), .is_error = true, .error_code = code};
  }
  static Result FromError(const Error& e) { return Fail(e.for_model, e.code); }
};

}  // namespace clawtools
