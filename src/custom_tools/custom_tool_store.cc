#include "custom_tools/custom_tool_store.h"

#include <algorithm>
#include <random>

#include "store/clock.h"

namespace clawtools::custom_tools {
namespace {

using store::Params;
using store::Row;
using store::Transaction;

constexpr std::string_view kColumns =
    "id, name, description, parameters, command, working_dir, timeout_seconds, env, agent_id, "
    "enabled, created_at, updated_at";

std::string NewId() {
  std::random_device rd;
  std::uniform_int_distribution<int> nibble(0, 15);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) id.push_back('-');
    int v = nibble(rd);
    if (i == 12) v = 4;                 // version 4
    if (i == 16) v = 8 | (v & 3);       // RFC 4122 variant
    id.push_back(kHex[v]);
  }
  return id;
}

CustomToolDef FromRow(const Row& r) {
  CustomToolDef d;
  d.id = r.Text(0);
  d.name = r.Text(1);
  d.description = r.Text(2);
  d.parameters = Json::parse(r.Text(3), nullptr, false);
  d.command = r.Text(4);
  d.working_dir = r.Text(5);
  d.timeout_seconds = static_cast<int>(r.Int(6));
  Json env = Json::parse(r.Text(7), nullptr, false);
  if (env.is_object())
    for (const auto& [k, v] : env.items())
      if (v.is_string()) d.env[k] = v.get<std::string>();
  if (!r.IsNull(8)) d.agent_id = r.Text(8);
  d.enabled = r.Int(9) != 0;
  d.created_at = r.Int(10);
  d.updated_at = r.Int(11);
  return d;
}

store::SqlValue AgentParam(const std::optional<std::string>& agent) {
  if (!agent) return std::monostate{};
  return *agent;
}

// Bumps the counter and, on PostgreSQL, queues the NOTIFY that commit delivers.
Status PublishChange(Transaction& tx) {
  if (auto r = tx.Exec("UPDATE custom_tools_version SET version = version + 1 WHERE id = 1"); !r)
    return std::unexpected(r.error());
  if (tx.backend() == store::Backend::kPostgres) {
    if (auto r = tx.Query("SELECT pg_notify($1, '')", {std::string(kChangeChannel)}); !r)
      return std::unexpected(r.error());
  }
  return {};
}

// kAlreadyExists when another row (not `self_id`) in the same scope has the name. The unique
// indexes catch races; this gives the common case a clear message.
Status CheckNameFree(Transaction& tx, const CustomToolDef& def, const std::string& self_id) {
  auto rows = def.agent_id
                  ? tx.Query("SELECT id FROM custom_tools WHERE name = $1 AND agent_id = $2",
                             {def.name, *def.agent_id})
                  : tx.Query("SELECT id FROM custom_tools WHERE name = $1 AND agent_id IS NULL",
                             {def.name});
  if (!rows) return std::unexpected(rows.error());
  for (const Row& r : *rows)
    if (r.Text(0) != self_id)
      return Fail(ErrorCode::kAlreadyExists,
                  "a custom tool named '" + def.name + "' already exists in this scope");
  return {};
}

}  // namespace

bool CustomToolStore::has_key() const { return CurrentKey().has_value(); }

std::optional<crypto::Key> CustomToolStore::CurrentKey() const {
  std::lock_guard lock(key_mu_);
  return key_;
}

Expected<std::string> CustomToolStore::EncryptEnv(
    const std::map<std::string, std::string>& env) const {
  Json out = Json::object();
  if (env.empty()) return out.dump();
  auto key = CurrentKey();
  if (!key)
    return Fail(ErrorCode::kInvalidArgument,
                "env values are stored encrypted and no encryption key is configured: set " +
                    std::string(crypto::kKeyEnvVar) +
                    " or tools.custom_tools.encryption_key_file");
  for (const auto& [k, v] : env) {
    auto enc = crypto::Encrypt(v, *key);
    if (!enc) return std::unexpected(enc.error());
    out[k] = std::move(*enc);
  }
  return out.dump();
}

Expected<CustomToolDef> CustomToolStore::Create(const CustomToolDef& def) const {
  auto env = EncryptEnv(def.env);
  if (!env) return std::unexpected(env.error());
  const std::string id = NewId();
  const int64_t now = store::UnixMillisNow();
  auto st = store_.InTransaction([&](Transaction& tx) -> Status {
    if (auto free = CheckNameFree(tx, def, id); !free) return free;
    auto r = tx.Exec(
        "INSERT INTO custom_tools (id, name, description, parameters, command, working_dir, "
        "timeout_seconds, env, agent_id, enabled, created_at, updated_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)",
        {id, def.name, def.description, def.parameters.dump(), def.command, def.working_dir,
         int64_t{def.timeout_seconds}, *env, AgentParam(def.agent_id), int64_t{def.enabled},
         now});
    if (!r) return std::unexpected(r.error());
    return PublishChange(tx);
  });
  if (!st) return std::unexpected(st.error());
  auto got = Get(id);
  if (!got) return std::unexpected(got.error());
  if (!*got) return Fail(ErrorCode::kInternal, "custom tool vanished after insert");
  return **got;
}

Expected<std::optional<CustomToolDef>> CustomToolStore::Get(std::string_view id) const {
  auto rows = store_.Query(std::string("SELECT ") + std::string(kColumns) +
                               " FROM custom_tools WHERE id = $1",
                           {std::string(id)});
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::nullopt;
  return FromRow(rows->front());
}

Expected<CustomToolDef> CustomToolStore::Update(const CustomToolDef& def,
                                                bool replace_env) const {
  std::string env;
  if (replace_env) {
    auto e = EncryptEnv(def.env);
    if (!e) return std::unexpected(e.error());
    env = std::move(*e);
  }
  auto st = store_.InTransaction([&](Transaction& tx) -> Status {
    if (auto free = CheckNameFree(tx, def, def.id); !free) return free;
    auto r = tx.Exec(
        "UPDATE custom_tools SET name = $2, description = $3, parameters = $4, command = $5, "
        "working_dir = $6, timeout_seconds = $7, agent_id = $8, enabled = $9, updated_at = $10" +
            std::string(replace_env ? ", env = $11" : "") + " WHERE id = $1",
        replace_env
            ? Params{def.id, def.name, def.description, def.parameters.dump(), def.command,
                     def.working_dir, int64_t{def.timeout_seconds}, AgentParam(def.agent_id),
                     int64_t{def.enabled}, store::UnixMillisNow(), env}
            : Params{def.id, def.name, def.description, def.parameters.dump(), def.command,
                     def.working_dir, int64_t{def.timeout_seconds}, AgentParam(def.agent_id),
                     int64_t{def.enabled}, store::UnixMillisNow()});
    if (!r) return std::unexpected(r.error());
    if (*r == 0) return Fail(ErrorCode::kNotFound, "no custom tool " + def.id);
    return PublishChange(tx);
  });
  if (!st) return std::unexpected(st.error());
  auto got = Get(def.id);
  if (!got) return std::unexpected(got.error());
  if (!*got) return Fail(ErrorCode::kNotFound, "no custom tool " + def.id);
  return **got;
}

Status CustomToolStore::Remove(std::string_view id) const {
  return store_.InTransaction([&](Transaction& tx) -> Status {
    auto r = tx.Exec("DELETE FROM custom_tools WHERE id = $1", {std::string(id)});
    if (!r) return std::unexpected(r.error());
    if (*r == 0) return Fail(ErrorCode::kNotFound, "no custom tool " + std::string(id));
    return PublishChange(tx);
  });
}

Expected<std::vector<CustomToolDef>> CustomToolStore::List() const {
  auto rows = store_.Query(std::string("SELECT ") + std::string(kColumns) + " FROM custom_tools");
  if (!rows) return std::unexpected(rows.error());
  std::vector<CustomToolDef> out;
  for (const Row& r : *rows) out.push_back(FromRow(r));
  // Bytewise on both backends (ORDER BY would follow the server's collation).
  std::ranges::sort(out, [](const CustomToolDef& a, const CustomToolDef& b) {
    return std::tie(a.agent_id, a.name) < std::tie(b.agent_id, b.name);
  });
  return out;
}

Expected<std::map<std::string, std::string>> CustomToolStore::DecryptEnv(
    const CustomToolDef& def) const {
  std::map<std::string, std::string> out;
  if (def.env.empty()) return out;
  auto key = CurrentKey();
  if (!key)
    return Fail(ErrorCode::kUnavailable,
                "custom tool '" + def.name + "' has env values but no encryption key is configured");
  for (const auto& [k, v] : def.env) {
    auto plain = crypto::Decrypt(v, *key);
    if (!plain)
      return Fail(plain.error().code,
                  "custom tool '" + def.name + "': env " + k + ": " + plain.error().for_model);
    out[k] = std::move(*plain);
  }
  return out;
}

Expected<int> CustomToolStore::RotateKey(const crypto::Key& new_key) {
  auto old_key = CurrentKey();
  auto count = store_.InTransaction([&](Transaction& tx) -> Expected<int> {
    auto rows = tx.Query("SELECT id, env FROM custom_tools");
    if (!rows) return std::unexpected(rows.error());
    int n = 0;
    for (const Row& r : *rows) {
      Json env = Json::parse(r.Text(1), nullptr, false);
      if (!env.is_object() || env.empty()) continue;
      if (!old_key)
        return Fail(ErrorCode::kUnavailable, "the current encryption key is needed to rotate");
      for (auto& [k, v] : env.items()) {
        auto plain = crypto::Decrypt(v.get<std::string>(), *old_key);
        if (!plain) return std::unexpected(plain.error());
        auto enc = crypto::Encrypt(*plain, new_key);
        if (!enc) return std::unexpected(enc.error());
        v = std::move(*enc);
        ++n;
      }
      auto u = tx.Exec("UPDATE custom_tools SET env = $2, updated_at = $3 WHERE id = $1",
                       {r.Text(0), env.dump(), store::UnixMillisNow()});
      if (!u) return std::unexpected(u.error());
    }
    if (auto st = PublishChange(tx); !st) return std::unexpected(st.error());
    return n;
  });
  if (!count) return count;
  std::lock_guard lock(key_mu_);
  key_ = new_key;
  return count;
}

Expected<int64_t> CustomToolStore::Version() const {
  auto rows = store_.Query("SELECT version FROM custom_tools_version WHERE id = 1");
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return int64_t{0};
  return rows->front().Int(0);
}

}  // namespace clawtools::custom_tools
