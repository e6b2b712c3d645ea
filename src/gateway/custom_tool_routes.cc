#include "gateway/custom_tool_routes.h"

namespace clawtools {
namespace {

using custom_tools::CustomToolDef;
using custom_tools::CustomToolLoader;
using custom_tools::CustomToolStore;
using custom_tools::EventNotifier;

Expected<Json> ParseBody(const HttpRequest& r) {
  Json body = Json::parse(r.body, nullptr, false);
  if (body.is_discarded() || !body.is_object())
    return Fail(ErrorCode::kInvalidArgument, "body must be a JSON object");
  return body;
}

struct Deps {
  CustomToolStore& store;
  CustomToolLoader& loader;
  EventNotifier& notifier;

  custom_tools::IsReservedName Reserved() const {
    return [this](std::string_view n) { return loader.IsBuiltin(n); };
  }
};

HttpResponse Create(const Deps& d, const HttpRequest& r) {
  auto body = ParseBody(r);
  if (!body) return ErrorResponseFor(body.error());
  auto def = custom_tools::DefinitionFromJson(*body);
  if (!def) return ErrorResponseFor(def.error());
  if (auto st = custom_tools::ValidateDefinition(*def, d.Reserved()); !st)
    return ErrorResponseFor(st.error());
  auto stored = d.store.Create(*def);
  if (!stored) return ErrorResponseFor(stored.error());
  d.notifier.Publish();
  return JsonResponse(201, custom_tools::DefinitionToJson(*stored));
}

HttpResponse List(const Deps& d, const HttpRequest& r) {
  auto agent = r.Query("agent");
  bool global_only = r.Query("scope").value_or("") == "global";
  auto all = d.store.List();
  if (!all) return ErrorResponseFor(all.error());
  Json out = Json::array();
  for (const CustomToolDef& t : *all) {
    if (global_only && t.agent_id) continue;
    if (agent && t.agent_id != std::optional<std::string>(std::string(*agent))) continue;
    out.push_back(custom_tools::DefinitionToJson(t));
  }
  return JsonResponse(200, out);
}

HttpResponse Get(const Deps& d, const HttpRequest& r) {
  const std::string& id = r.params.at("id");
  auto t = d.store.Get(id);
  if (!t) return ErrorResponseFor(t.error());
  if (!*t) return ErrorResponse(404, "no custom tool " + id);
  return JsonResponse(200, custom_tools::DefinitionToJson(**t));
}

HttpResponse Update(const Deps& d, const HttpRequest& r) {
  const std::string& id = r.params.at("id");
  auto body = ParseBody(r);
  if (!body) return ErrorResponseFor(body.error());
  auto current = d.store.Get(id);
  if (!current) return ErrorResponseFor(current.error());
  if (!*current) return ErrorResponse(404, "no custom tool " + id);
  auto def = custom_tools::ApplyPatch(**current, *body);
  if (!def) return ErrorResponseFor(def.error());
  def->id = id;
  const bool replace_env = body->contains("env");
  // Stored (encrypted) values pass validation too: they hold no NUL.
  if (auto st = custom_tools::ValidateDefinition(*def, d.Reserved()); !st)
    return ErrorResponseFor(st.error());
  auto stored = d.store.Update(*def, replace_env);
  if (!stored) return ErrorResponseFor(stored.error());
  d.notifier.Publish();
  return JsonResponse(200, custom_tools::DefinitionToJson(*stored));
}

HttpResponse Remove(const Deps& d, const HttpRequest& r) {
  const std::string& id = r.params.at("id");
  if (auto st = d.store.Remove(id); !st) return ErrorResponseFor(st.error());
  d.notifier.Publish();
  return JsonResponse(200, Json{{"removed", id}});
}

}  // namespace

void AddCustomToolRoutes(Router& router, CustomToolStore& store, CustomToolLoader& loader,
                         EventNotifier& notifier) {
  auto d = std::make_shared<const Deps>(Deps{store, loader, notifier});
  RouteTraits pool{.blocking = true};
  router.Add("POST", "/v1/custom-tools", [d](const HttpRequest& r) { return Create(*d, r); }, pool);
  router.Add("GET", "/v1/custom-tools", [d](const HttpRequest& r) { return List(*d, r); }, pool);
  router.Add("GET", "/v1/custom-tools/{id}", [d](const HttpRequest& r) { return Get(*d, r); },
             pool);
  router.Add("PUT", "/v1/custom-tools/{id}", [d](const HttpRequest& r) { return Update(*d, r); },
             pool);
  router.Add("DELETE", "/v1/custom-tools/{id}",
             [d](const HttpRequest& r) { return Remove(*d, r); }, pool);
}

}  // namespace clawtools
