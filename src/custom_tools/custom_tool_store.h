// The custom_tools table (migration 004) on SQLite or PostgreSQL.
//
// Env values are encrypted one by one with the configured key before they are written and are
// never returned in plaintext except by DecryptEnv, which the loader calls to hand them to the
// child process. Storing an env value without a key is refused.
//
// Every change bumps custom_tools_version in the same transaction and, on PostgreSQL, sends
// NOTIFY on kChangeChannel, delivered at commit: gateways sharing the database (and CLI edits)
// reach every loader without a restart. Thread-safe; `store` must outlive this object.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "crypto/aes_gcm.h"
#include "custom_tools/custom_tool_def.h"
#include "store/store.h"

namespace clawtools::custom_tools {

// The `cache:custom_tools` event: the PostgreSQL NOTIFY channel as well.
inline constexpr std::string_view kChangeChannel = "cache:custom_tools";

class CustomToolStore {
 public:
  CustomToolStore(store::Store& store, std::optional<crypto::Key> key)
      : store_(store), key_(std::move(key)) {}

  // Inserts `def` (validated by the caller) with a new id; returns it as stored. kAlreadyExists
  // when the scope already has that name; kInvalidArgument when env is set and no key is.
  Expected<CustomToolDef> Create(const CustomToolDef& def) const;
  Expected<std::optional<CustomToolDef>> Get(std::string_view id) const;
  // Replaces the row `def.id`. With `replace_env` false the stored env is kept (def.env is
  // ignored); with true def.env holds plaintext to encrypt. kNotFound when absent.
  Expected<CustomToolDef> Update(const CustomToolDef& def, bool replace_env) const;
  Status Remove(std::string_view id) const;
  // Every tool, enabled or not, ordered by agent (global first), then name.
  Expected<std::vector<CustomToolDef>> List() const;

  // The plaintext env of a stored definition. kUnavailable without a key; kPermissionDenied
  // when a value does not decrypt with it.
  Expected<std::map<std::string, std::string>> DecryptEnv(const CustomToolDef& def) const;

  // Re-encrypts every env value under `new_key` in one transaction (all rows or none), then
  // uses `new_key` from here on. Returns the number of values re-encrypted. Requires the
  // current key when any value is stored.
  Expected<int> RotateKey(const crypto::Key& new_key);

  // The change counter; differs after every committed change.
  Expected<int64_t> Version() const;

  bool has_key() const;

 private:
  std::optional<crypto::Key> CurrentKey() const;
  Expected<std::string> EncryptEnv(const std::map<std::string, std::string>& env) const;

  store::Store& store_;
  mutable std::mutex key_mu_;
  std::optional<crypto::Key> key_;
};

}  // namespace clawtools::custom_tools
