#include "gateway/routes.h"

#include <charconv>

#include "gateway/invoke_request.h"
#include "gateway/outcome_json.h"
#include "version.h"

namespace clawtools {

namespace {

HttpResponse Health(const Runtime& runtime) {
  return JsonResponse(
      200,
      Json{{"status", "ok"},
           {"version", CLAWTOOLS_VERSION},
           {"tools", runtime.registry().size()},
           {"sandbox", runtime.SandboxCapabilities()}});
}

std::vector<std::string> SplitCommas(std::string_view s) {
  std::vector<std::string> parts;
  while (!s.empty()) {
    size_t comma = s.find(',');
    if (comma != 0) parts.emplace_back(s.substr(0, comma));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return parts;
}

HttpResponse ListTools(const Runtime& runtime, const HttpRequest& request) {
  ToolQuery query;
  query.agent_id = request.Query("agent").value_or("");
  query.user_id = request.Query("user").value_or("");
  query.provider = request.Query("provider").value_or("");
  if (auto groups = request.Query("group_allow")) query.group_allow = SplitCommas(*groups);
  if (auto depth = request.Query("subagent_depth")) {
    auto [end, ec] =
        std::from_chars(depth->data(), depth->data() + depth->size(), query.subagent_depth);
    if (depth->empty() || ec != std::errc() || end != depth->data() + depth->size() ||
        query.subagent_depth < 0) {
      return ErrorResponse(400, "subagent_depth must be a non-negative integer");
    }
  }
  std::string_view explain = request.Query("explain").value_or("");
  if (explain == "1" || explain == "true") return JsonResponse(200, runtime.ExplainTools(query));
  if (!explain.empty() && explain != "0" && explain != "false") {
    return ErrorResponse(400, "explain must be 1 or 0");
  }

  std::string_view format = request.Query("format").value_or("openai");
  DefinitionFormat definition_format;
  if (format == "openai") {
    definition_format = DefinitionFormat::kOpenAI;
  } else if (format == "anthropic") {
    definition_format = DefinitionFormat::kAnthropic;
  } else {
    return ErrorResponse(400, "format must be openai or anthropic");
  }
  return JsonResponse(200, runtime.ToolDefinitions(query, definition_format));
}

HttpResponse Invoke(const Runtime& runtime, std::stop_token shutdown, const HttpRequest& request) {
  auto call = ParseInvokeRequest(request.params.at("name"), request.body);
  if (!call) return ErrorResponse(400, call.error().for_model);
  call->cancel = shutdown;
  return JsonResponse(200, OutcomeToJson(runtime.Call(*call)));
}

}  // namespace

void AddCoreRoutes(Router& router, const Runtime& runtime, std::stop_token shutdown) {
  router.Add("GET", "/healthz", [&runtime](const HttpRequest&) { return Health(runtime); },
             {.public_access = true});
  // Policy evaluation may consult the store, so listing stays off the io threads too.
  router.Add("GET", "/v1/tools",
             [&runtime](const HttpRequest& request) { return ListTools(runtime, request); },
             {.blocking = true});
  router.Add("POST", "/v1/tools/{name}/invoke",
             [&runtime, shutdown](const HttpRequest& request) {
               return Invoke(runtime, shutdown, request);
             },
             {.blocking = true});
}

}  // namespace clawtools
