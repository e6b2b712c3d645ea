#include "gateway/listen_address.h"

#include <arpa/inet.h>

#include <charconv>
#include <cstring>

namespace clawtools {

std::string ListenAddress::ToString() const {
  bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Expected<ListenAddress> ParseListenAddress(std::string_view text) {
  auto invalid = [&](std::string_view why) {
    return Fail(ErrorCode::kInvalidArgument,
                "invalid listen address \"" + std::string(text) + "\": " + std::string(why));
  };
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return invalid("expected host:port");
  std::string_view host = text.substr(0, colon);
  std::string_view port_text = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  unsigned port = 0;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() ||
      port > 65535) {
    return invalid("port must be a number from 0 to 65535");
  }
  ListenAddress address{.host = std::string(host), .port = static_cast<uint16_t>(port)};
  if (address.host == "localhost") address.host = "127.0.0.1";
  in_addr v4;
  in6_addr v6;
  if (inet_pton(AF_INET, address.host.c_str(), &v4) != 1 &&
      inet_pton(AF_INET6, address.host.c_str(), &v6) != 1) {
    return invalid("host must be an IP address or localhost");
  }
  return address;
}

bool IsLoopback(const ListenAddress& address) {
  in_addr v4;
  if (inet_pton(AF_INET, address.host.c_str(), &v4) == 1) {
    return (ntohl(v4.s_addr) >> 24) == 127;
  }
  in6_addr v6;
  if (inet_pton(AF_INET6, address.host.c_str(), &v6) != 1) return false;
  if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
  return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
}

}  // namespace clawtools
