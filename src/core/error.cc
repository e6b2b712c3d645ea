#include "core/error.h"

namespace clawtools {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kPermissionDenied: return "permission_denied";
    case ErrorCode::kRateLimited: return "rate_limited";
    case ErrorCode::kDeadlineExceeded: return "deadline_exceeded";
    case ErrorCode::kCancelled: return "cancelled";
    case ErrorCode::kUnavailable: return "unavailable";
    case ErrorCode::kAlreadyExists: return "already_exists";
    case ErrorCode::kInternal: return "internal";
  }
  return "internal";
}

}  // namespace clawtools
