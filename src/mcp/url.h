// The one URL operation the HTTP transports need: resolving the SSE `endpoint` event, which
// servers send as an absolute URL, an absolute path or a relative path.
#pragma once

#include <string>
#include <string_view>

namespace clawtools::mcp {

std::string ResolveUrl(std::string_view base, std::string_view ref);

}  // namespace clawtools::mcp
