// Bearer-token check for the gateway.
#pragma once

#include <string_view>

namespace clawtools {

// True when `authorization` is "Bearer <token>" (scheme case-insensitive) with exactly `token`.
// The comparison takes time independent of where the candidate first differs, so the token
// cannot be guessed byte by byte from response times. An empty `token` never matches.
bool BearerTokenMatches(std::string_view authorization, std::string_view token);

}  // namespace clawtools
