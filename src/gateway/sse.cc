#include "gateway/sse.h"

namespace clawtools {

std::string FormatSseEvent(uint64_t id, std::string_view type, std::string_view data) {
  std::string out;
  if (id != 0) out += "id: " + std::to_string(id) + "\n";
  // A CR or LF inside the type would end the field early and let data forge fields.
  out += "event: ";
  for (char c : type) out += (c == '\n' || c == '\r') ? ' ' : c;
  out += "\n";
  while (true) {
    size_t nl = data.find_first_of("\r\n");
    out += "data: ";
    out.append(data.substr(0, nl));
    out += "\n";
    if (nl == std::string_view::npos) break;
    size_t skip = (data[nl] == '\r' && nl + 1 < data.size() && data[nl + 1] == '\n') ? 2 : 1;
    data.remove_prefix(nl + skip);
  }
  out += "\n";
  return out;
}

}  // namespace clawtools
