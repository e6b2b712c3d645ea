// Server-sent events wire format (WHATWG HTML, "Server-sent events"), as the gateway's event
// streams (Gateway::AddEventStream, GET /v1/events) write it:
//
//   id: 42
//   event: approval.requested
//   data: {"id":"apr_…","command":"git push",…}
//   <blank line>
//
// plus a comment line ":" every heartbeat interval so proxies and clients see a live stream,
// and "event: events.dropped" / data {"dropped": total} when a slow client lost events to its
// bounded queue. Beast-free so it can be tested without the server.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace clawtools {

inline constexpr std::string_view kSseHeartbeat = ":\n\n";

// One event record. `id` 0 writes no id line; a `data` with newlines becomes several data
// lines (the client joins them back with "\n").
std::string FormatSseEvent(uint64_t id, std::string_view type, std::string_view data);

}  // namespace clawtools
