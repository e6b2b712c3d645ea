#include "config/config.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "config/config_schema.h"
#include "core/schema_validator.h"

namespace clawtools {
namespace {

constexpr const char* kDefaultListen = "127.0.0.1:18790";

std::string Home() {
  if (const char* h = std::getenv("CLAWTOOLS_HOME"); h && *h) return h;
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.clawtools";
  return ".clawtools";
}

bool LooksLikeCredentialKey(std::string_view key) {
  std::string k;
  for (char c : key) k.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  for (const char* needle : {"token", "secret", "password", "api_key", "apikey", "authorization"}) {
    if (k.find(needle) != std::string::npos) return true;
  }
  return k.ends_with("_key");
}

// Replaces "${NAME}" string values by the environment variable NAME (whole-value only, so
// a literal "$" elsewhere in a string is never touched). Collects secrets on the way.
Status ExpandEnv(Json& node, const std::string& path, std::vector<std::string>& secrets) {
  if (node.is_object()) {
    for (auto& [key, value] : node.items()) {
      std::string child = path.empty() ? key : path + "." + key;
      if (auto s = ExpandEnv(value, child, secrets); !s) return s;
      if (value.is_string() && LooksLikeCredentialKey(key) && !value.get<std::string>().empty()) {
        secrets.push_back(value.get<std::string>());
      }
    }
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) {
      if (auto s = ExpandEnv(node[i], path + "[" + std::to_string(i) + "]", secrets); !s) return s;
    }
  } else if (node.is_string()) {
    const std::string& s = node.get_ref<const std::string&>();
    if (s.size() > 3 && s.starts_with("${") && s.ends_with("}")) {
      std::string name = s.substr(2, s.size() - 3);
      const char* value = std::getenv(name.c_str());
      if (!value) {
        return Fail(ErrorCode::kInvalidArgument,
                    path + ": environment variable " + name + " is not set");
      }
      node = std::string(value);
      if (!node.get<std::string>().empty()) secrets.push_back(value);
    }
  }
  return {};
}

}  // namespace

Config::Config() = default;

Expected<Config> Config::LoadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorCode::kNotFound, "cannot read config file " + path);
  std::stringstream buf;
  buf << in.rdbuf();
  return Parse(buf.str(), path);
}

Expected<Config> Config::Parse(std::string_view text, std::string_view origin) {
  Config cfg;
  Json doc = text.find_first_not_of(" \t\r\n") == std::string_view::npos ? Json::object()
                                                                          : ParseJsonLenient(text);
  if (doc.is_discarded()) {
    // Re-parse with exceptions on to get the position of the syntax error.
    try {
      Json ignored = Json::parse(text, nullptr, true, true);
    } catch (const Json::parse_error& e) {
      return Fail(ErrorCode::kInvalidArgument, std::string(origin) + ": invalid JSON: " + e.what());
    }
    return Fail(ErrorCode::kInvalidArgument, std::string(origin) + ": invalid JSON");
  }
  if (!doc.is_object()) {
    return Fail(ErrorCode::kInvalidArgument, std::string(origin) + ": must be a JSON object");
  }
  if (auto s = ExpandEnv(doc, "", cfg.secret_values_); !s) {
    return Fail(ErrorCode::kInvalidArgument, std::string(origin) + ": " + s.error().for_model);
  }
  if (const char* t = std::getenv("CLAWTOOLS_TOKEN"); t && *t) {
    doc["gateway"]["token"] = t;
    cfg.secret_values_.push_back(t);
  }
  if (const char* db = std::getenv("CLAWTOOLS_DB"); db && *db) doc["db"] = db;
  auto violations = ValidateSchema(ConfigSchema(), doc, "");
  if (!violations.empty()) {
    return Fail(ErrorCode::kInvalidArgument,
                std::string(origin) + ": " + FormatViolations(violations));
  }
  cfg.root_ = std::move(doc);
  return cfg;
}

void Config::SetOverride(const std::string& json_pointer, Json value) {
  root_[Json::json_pointer(json_pointer)] = std::move(value);
}

std::string Config::workspace() const {
  if (auto it = root_.find("workspace"); it != root_.end()) return it->get<std::string>();
  return Home() + "/workspace";
}

std::string Config::db_url() const {
  if (auto it = root_.find("db"); it != root_.end()) return it->get<std::string>();
  return Home() + "/clawtools.db";
}

std::string Config::gateway_listen() const {
  return root_.value(Json::json_pointer("/gateway/listen"), std::string(kDefaultListen));
}

std::string Config::gateway_token() const {
  return root_.value(Json::json_pointer("/gateway/token"), std::string());
}

bool Config::scrub_credentials() const {
  return root_.value(Json::json_pointer("/tools/scrub_credentials"), true);
}

}  // namespace clawtools
