// Mapping an MCP tools/call result onto a clawtools Result, and the untrusted-content
// envelope around everything an MCP server says.
//
// Every content type is represented: text joined by newlines; image and audio described (mime,
// decoded size) since the model gets text; embedded resources with their text (blobs
// described); resource links listed; structuredContent appended as JSON unless a text item
// already carries the same JSON (the spec asks servers to do that for old clients). isError
// becomes Result::is_error. The whole for_llm is wrapped in GoClaw's external-content envelope
// (goclaw-facts 8.4), with marker look-alikes inside neutralised, so a server cannot close the
// envelope early and speak as the system.
#pragma once

#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"

namespace clawtools::mcp {

// The textual rendering of a result's content and structuredContent (no envelope).
std::string RenderCallResult(const Json& result);

// `<<<EXTERNAL_UNTRUSTED_CONTENT>>>` ... `<<<END_EXTERNAL_UNTRUSTED_CONTENT>>>`, naming
// server and tool. Empty content stays empty.
std::string WrapUntrusted(std::string_view content, std::string_view server, std::string_view tool);

Result MapCallResult(const Json& result, std::string_view server, std::string_view tool);

}  // namespace clawtools::mcp
