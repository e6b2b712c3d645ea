#include "gateway/approval_routes.h"

#include <charconv>

namespace clawtools {
namespace {

HttpResponse List(const ApprovalManager& manager, const HttpRequest& request) {
  std::string_view wanted = request.Query("status").value_or("all");
  std::optional<ApprovalStatus> status;
  if (wanted != "all") {
    status = ParseApprovalStatus(wanted);
    if (!status)
      return ErrorResponse(400, "status must be pending, allowed, denied, expired or all");
  }
  auto list = manager.store().List(status);
  if (!list) return ErrorResponseFor(list.error());
  Json out = Json::array();
  for (const auto& a : *list) out.push_back(manager.ToJson(a));
  return JsonResponse(200, out);
}

HttpResponse Get(const ApprovalManager& manager, const HttpRequest& request) {
  const std::string& id = request.params.at("id");
  auto a = manager.store().Get(id);
  if (!a) return ErrorResponseFor(a.error());
  if (!*a) return ErrorResponse(404, "no approval request " + id);
  return JsonResponse(200, manager.ToJson(**a));
}

HttpResponse Decide(ApprovalManager& manager, const HttpRequest& request) {
  Json body = Json::parse(request.body, nullptr, false);
  if (body.is_discarded() || !body.is_object() || !body.contains("decision") ||
      !body["decision"].is_string()) {
    return ErrorResponse(400,
                         "body must be {\"decision\": \"allow-once\"|\"allow-always\"|\"deny\"}");
  }
  auto decision = ParseApprovalDecision(body["decision"].get<std::string>());
  if (!decision) return ErrorResponse(400, "decision must be allow-once, allow-always or deny");
  std::string by = "http";
  if (auto it = body.find("by"); it != body.end()) {
    if (!it->is_string()) return ErrorResponse(400, "by must be a string");
    if (!it->get<std::string>().empty()) by += ":" + it->get<std::string>();
  }
  auto decided = manager.Decide(request.params.at("id"), *decision, by);
  if (!decided) return ErrorResponseFor(decided.error());
  return JsonResponse(200, manager.ToJson(*decided));
}

HttpResponse Rules(const ApprovalManager& manager) {
  auto rules = manager.store().Rules(std::nullopt);
  if (!rules) return ErrorResponseFor(rules.error());
  Json out = Json::array();
  for (const auto& r : *rules) out.push_back(manager.ToJson(r));
  return JsonResponse(200, out);
}

HttpResponse RemoveRule(const ApprovalManager& manager, const HttpRequest& request) {
  const std::string& text = request.params.at("id");
  int64_t id = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || end != text.data() + text.size() || id <= 0) {
    return ErrorResponse(400, "rule id must be a positive integer");
  }
  if (auto removed = manager.store().RemoveRule(id); !removed) return ErrorResponseFor(removed.error());
  return JsonResponse(200, Json{{"removed", id}});
}

}  // namespace

void AddApprovalRoutes(Router& router, ApprovalManager& manager) {
  RouteTraits pool{.blocking = true};
  router.Add(
      "GET", "/v1/approvals", [&manager](const HttpRequest& r) { return List(manager, r); }, pool);
  // Before /v1/approvals/{id}: the first matching route wins.
  router.Add(
      "GET", "/v1/approvals/rules", [&manager](const HttpRequest&) { return Rules(manager); },
      pool);
  router.Add(
      "DELETE", "/v1/approvals/rules/{id}",
      [&manager](const HttpRequest& r) { return RemoveRule(manager, r); }, pool);
  router.Add(
      "GET", "/v1/approvals/{id}", [&manager](const HttpRequest& r) { return Get(manager, r); },
      pool);
  router.Add(
      "POST", "/v1/approvals/{id}", [&manager](const HttpRequest& r) { return Decide(manager, r); },
      pool);
}

}  // namespace clawtools
