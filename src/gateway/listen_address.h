// The gateway's `host:port` listen setting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"

namespace clawtools {

struct ListenAddress {
  std::string host;   // an IPv4/IPv6 literal (brackets stripped); "localhost" becomes 127.0.0.1
  uint16_t port = 0;  // 0: the kernel picks one

  // "127.0.0.1:18790" or "[::1]:18790"
  std::string ToString() const;
};

// Accepts "host:port" and "[v6]:port". Host names other than localhost are rejected: binding
// must not depend on DNS, and the loopback check below must see the real address.
Expected<ListenAddress> ParseListenAddress(std::string_view text);

// 127.0.0.0/8, ::1 and IPv4-mapped 127.x. Anything else is reachable from other machines.
bool IsLoopback(const ListenAddress& address);

}  // namespace clawtools
