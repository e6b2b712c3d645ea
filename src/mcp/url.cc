#include "mcp/url.h"

namespace clawtools::mcp {

std::string ResolveUrl(std::string_view base, std::string_view ref) {
  if (ref.find("://") != std::string_view::npos) return std::string(ref);
  size_t scheme = base.find("://");
  size_t path_start = scheme == std::string_view::npos ? 0 : base.find('/', scheme + 3);
  std::string_view origin =
      path_start == std::string_view::npos ? base : base.substr(0, path_start);
  if (ref.starts_with("/")) return std::string(origin) + std::string(ref);
  std::string_view path = path_start == std::string_view::npos ? "/" : base.substr(path_start);
  path = path.substr(0, path.find_first_of("?#"));
  return std::string(origin) + std::string(path.substr(0, path.rfind('/') + 1)) + std::string(ref);
}

}  // namespace clawtools::mcp
