#include "gateway/auth.h"

#include <strings.h>

namespace clawtools {

bool BearerTokenMatches(std::string_view authorization, std::string_view token) {
  constexpr std::string_view kScheme = "Bearer ";
  if (token.empty() || authorization.size() < kScheme.size() ||
      strncasecmp(authorization.data(), kScheme.data(), kScheme.size()) != 0) {
    return false;
  }
  std::string_view candidate = authorization.substr(kScheme.size());
  // Always walks the whole expected token; a length mismatch is folded into the result.
  unsigned diff = candidate.size() != token.size() ? 1u : 0u;
  for (size_t i = 0; i < token.size(); ++i) {
    unsigned char c = i < candidate.size() ? static_cast<unsigned char>(candidate[i]) : 0;
    diff |= c ^ static_cast<unsigned char>(token[i]);
  }
  return diff == 0;
}

}  // namespace clawtools
