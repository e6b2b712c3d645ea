// Serving one McpServerSession over MCP's stdio framing: newline-delimited JSON-RPC read from
// `in_fd`, answers written to `out_fd` (stdout is the protocol: nothing else may write there).
//
// Up to `workers` tools/call requests run at once, and while they run another thread keeps
// reading: ping answers and notifications/cancelled reaches the running call. Everything else
// is answered inline, in order. A call runs on the thread that read it (no hand-off to a
// worker), and a thread that has just answered polls for 50 us before it sleeps (while that
// pays off), which keeps a sequential client's round trip short. Lines that are not JSON get a
// -32700 answer with a null id. Returns at end of input after the in-flight calls have finished
// and been answered. Writes to a socket never raise SIGPIPE; a process serving a pipe should
// ignore SIGPIPE itself.
#pragma once

#include <cstddef>

#include "core/error.h"
#include "mcp/server_session.h"

namespace clawtools::mcp {

struct StdioServeOptions {
  size_t workers = 4;                        // concurrent tools/call
  size_t max_line_bytes = 64 * 1024 * 1024;  // a longer line ends the session (runaway peer)
};

Status ServeStdio(McpServerSession& session, int in_fd, int out_fd, StdioServeOptions options = {});

}  // namespace clawtools::mcp
