#include "custom_tools/custom_tool_def.h"

#include "custom_tools/command_template.h"

namespace clawtools::custom_tools {
namespace {

Status TypeError(std::string_view field, std::string_view want) {
  return Fail(ErrorCode::kInvalidArgument,
              std::string(field) + " must be " + std::string(want));
}

bool IsEnvName(std::string_view n) {
  if (n.empty() || (n[0] >= '0' && n[0] <= '9')) return false;
  for (char c : n)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return !n.starts_with("LD_") && !n.starts_with("BASH_FUNC_");
}

// Reads one field into `def`; kInvalidArgument for a wrong type or an unknown field.
Status ReadField(CustomToolDef& def, const std::string& key, const Json& v) {
  if (key == "id" || key == "created_at" || key == "updated_at") return {};
  if (key == "name" || key == "description" || key == "command" || key == "working_dir") {
    if (!v.is_string()) return TypeError(key, "a string");
    std::string s = v.get<std::string>();
    if (key == "name") def.name = std::move(s);
    if (key == "description") def.description = std::move(s);
    if (key == "command") def.command = std::move(s);
    if (key == "working_dir") def.working_dir = std::move(s);
    return {};
  }
  if (key == "parameters") {
    if (!v.is_object()) return TypeError(key, "a JSON Schema object");
    def.parameters = v;
    return {};
  }
  if (key == "timeout_seconds") {
    if (!v.is_number_integer()) return TypeError(key, "an integer");
    int64_t t = v.get<int64_t>();
    if (t < 1 || t > kMaxTimeoutSeconds)
      return TypeError(key, "between 1 and " + std::to_string(kMaxTimeoutSeconds));
    def.timeout_seconds = static_cast<int>(t);
    return {};
  }
  if (key == "enabled") {
    if (!v.is_boolean()) return TypeError(key, "true or false");
    def.enabled = v.get<bool>();
    return {};
  }
  if (key == "agent_id") {
    if (v.is_null()) {
      def.agent_id.reset();
    } else if (v.is_string() && !v.get<std::string>().empty()) {
      def.agent_id = v.get<std::string>();
    } else {
      return TypeError(key, "a non-empty string or null");
    }
    return {};
  }
  if (key == "env") {
    if (!v.is_object()) return TypeError(key, "an object of strings");
    def.env.clear();
    for (const auto& [k, val] : v.items()) {
      if (!val.is_string()) return TypeError("env." + k, "a string");
      def.env[k] = val.get<std::string>();
    }
    return {};
  }
  return Fail(ErrorCode::kInvalidArgument, "unknown field '" + key + "'");
}

}  // namespace

Expected<CustomToolDef> ApplyPatch(CustomToolDef base, const Json& patch) {
  if (!patch.is_object())
    return Fail(ErrorCode::kInvalidArgument, "a custom tool definition must be a JSON object");
  for (const auto& [k, v] : patch.items())
    if (auto st = ReadField(base, k, v); !st) return std::unexpected(st.error());
  return base;
}

Expected<CustomToolDef> DefinitionFromJson(const Json& j) { return ApplyPatch({}, j); }

Json DefinitionToJson(const CustomToolDef& def) {
  Json env = Json::object();
  for (const auto& [k, v] : def.env) env[k] = "[encrypted]";
  return {{"id", def.id},
          {"name", def.name},
          {"description", def.description},
          {"parameters", def.parameters},
          {"command", def.command},
          {"working_dir", def.working_dir},
          {"timeout_seconds", def.timeout_seconds},
          {"env", env},
          {"agent_id", def.agent_id ? Json(*def.agent_id) : Json()},
          {"enabled", def.enabled},
          {"created_at", def.created_at},
          {"updated_at", def.updated_at}};
}

bool IsValidToolName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          c == '_' || c == '-'))
      return false;
  return true;
}

Status ValidateDefinition(const CustomToolDef& def, const IsReservedName& reserved) {
  if (!IsValidToolName(def.name))
    return Fail(ErrorCode::kInvalidArgument,
                "name must be 1 to 64 letters, digits, '_' or '-' (got '" + def.name + "')");
  if (reserved && reserved(def.name))
    return Fail(ErrorCode::kAlreadyExists,
                "'" + def.name + "' is a built-in tool; a custom tool may not shadow it");
  const Json& p = def.parameters;
  if (!p.is_object() || p.value("type", "") != "object")
    return Fail(ErrorCode::kInvalidArgument, "parameters must be a JSON Schema with type object");
  auto props = p.find("properties");
  if (props != p.end() && !props->is_object())
    return Fail(ErrorCode::kInvalidArgument, "parameters.properties must be an object");
  auto tmpl = CommandTemplate::Parse(def.command);
  if (!tmpl) return std::unexpected(tmpl.error());
  for (const std::string& name : tmpl->Placeholders()) {
    if (props == p.end() || !props->contains(name))
      return Fail(ErrorCode::kInvalidArgument,
                  "command placeholder {{." + name + "}} names no parameter");
  }
  if (def.timeout_seconds < 1 || def.timeout_seconds > kMaxTimeoutSeconds)
    return Fail(ErrorCode::kInvalidArgument, "timeout_seconds must be between 1 and " +
                                                 std::to_string(kMaxTimeoutSeconds));
  if (def.working_dir.find('\0') != std::string::npos)
    return Fail(ErrorCode::kInvalidArgument, "working_dir must not contain a NUL byte");
  for (const auto& [k, v] : def.env) {
    if (!IsEnvName(k))
      return Fail(ErrorCode::kInvalidArgument,
                  "env name '" + k + "' must be letters, digits and '_' (not LD_* or BASH_FUNC_*)");
    if (v.find('\0') != std::string::npos)
      return Fail(ErrorCode::kInvalidArgument, "env value of " + k + " contains a NUL byte");
  }
  return {};
}

}  // namespace clawtools::custom_tools
