// Message building for error texts (g++ 12's libstdc++ has no std::format). Internal.
#pragma once

#include <concepts>
#include <string>
#include <string_view>

namespace clawtools::store {

namespace internal {
inline void Append(std::string& out, std::string_view s) {
  out.append(s);
}
inline void Append(std::string& out, const char* s) {
  out.append(s ? s : "(null)");
}
inline void Append(std::string& out, std::integral auto n) {
  out.append(std::to_string(n));
}
}  // namespace internal

template <class... Parts>
std::string StrCat(const Parts&... parts) {
  std::string out;
  (internal::Append(out, parts), ...);
  return out;
}

}  // namespace clawtools::store
