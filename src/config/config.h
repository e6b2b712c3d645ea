// The configuration file: JSON with comments, GoClaw's key names where GoClaw has them.
//
// Load() validates the whole document against the config schema (config_schema.cc):
// an unknown key or a wrong type is an error naming the key path ("tools.alsoAlow: unknown key").
// Secrets may come from the environment: any string value "${NAME}" is replaced by the value
// of environment variable NAME, and CLAWTOOLS_TOKEN / CLAWTOOLS_DB override gateway.token / db.
// Every value that came from the environment, and every key that looks like a credential
// (token, api_key, ...), is listed in secret_values() so the scrubber can redact it.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "core/json.h"

namespace clawtools {

class Config {
 public:
  // Defaults only (as if the file were "{}").
  Config();

  static Expected<Config> LoadFile(const std::string& path);
  static Expected<Config> Parse(std::string_view text, std::string_view origin = "config");

  // The validated document, defaults NOT merged in: read with the accessors below or
  // with root().value(...). Sections: workspace, db, gateway, log, tools, agents.
  const Json& root() const { return root_; }

  // Convenience accessors with defaults applied.
  std::string workspace() const;
  std::string db_url() const;
  std::string gateway_listen() const;  // "127.0.0.1:18790"
  std::string gateway_token() const;   // empty = no auth
  bool scrub_credentials() const;      // tools.scrub_credentials, default true
  // Warnings found at load time (unknown tool names, unknown groups, ...), for the log.
  const std::vector<std::string>& warnings() const { return warnings_; }
  void AddWarning(std::string w) { warnings_.push_back(std::move(w)); }
  const std::vector<std::string>& secret_values() const { return secret_values_; }

  void SetOverride(const std::string& json_pointer, Json value);

 private:
  Json root_ = Json::object();
  std::vector<std::string> warnings_;
  std::vector<std::string> secret_values_;
};

}  // namespace clawtools
