#include "core/provider_defs.h"

namespace clawtools {
namespace {

void StripKeys(Json& node, std::initializer_list<const char*> keys) {
  if (node.is_object()) {
    for (const char* k : keys) node.erase(k);
    for (auto& [_, v] : node.items()) StripKeys(v, keys);
  } else if (node.is_array()) {
    for (auto& v : node) StripKeys(v, keys);
  }
}

}  // namespace

Json NormalizeParameters(const Json& parameters) {
  Json p = parameters.is_object() ? parameters : Json::object();
  if (!p.contains("type")) p["type"] = "object";
  if (p["type"] == "object" && !p.contains("properties")) p["properties"] = Json::object();
  return p;
}

Json OpenAIToolDef(const Tool& tool, std::string_view name_override) {
  return {{"type", "function"},
          {"function",
           {{"name", name_override.empty() ? tool.name() : std::string(name_override)},
            {"description", tool.description()},
            {"parameters", NormalizeParameters(tool.parameters())}}}};
}

Json AnthropicToolDef(const Tool& tool, std::string_view name_override) {
  Json schema = NormalizeParameters(tool.parameters());
  StripKeys(schema, {"$ref", "$defs"});
  return {{"name", name_override.empty() ? tool.name() : std::string(name_override)},
          {"description", tool.description()},
          {"input_schema", std::move(schema)}};
}

}  // namespace clawtools
