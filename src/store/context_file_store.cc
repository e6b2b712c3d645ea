#include "store/context_file_store.h"

#include <algorithm>

#include "store/clock.h"

namespace clawtools::store {
namespace {

std::string S(std::string_view s) {
  return std::string(s);
}

Expected<std::optional<ContextFile>> First(Expected<Rows> rows) {
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::nullopt;
  const Row& r = rows->front();
  return ContextFile{r.Text(0), r.Text(1), r.Int(2)};
}

Expected<std::vector<ContextFile>> All(Expected<Rows> rows) {
  if (!rows) return std::unexpected(rows.error());
  std::vector<ContextFile> out;
  for (const Row& r : *rows) out.push_back({r.Text(0), r.Text(1), r.Int(2)});
  // Sorted here, bytewise: ORDER BY would follow the PostgreSQL server's collation.
  std::ranges::sort(out, {}, &ContextFile::file_name);
  return out;
}

Status Done(Expected<int64_t> r) {
  if (!r) return std::unexpected(r.error());
  return {};
}

}  // namespace

Expected<std::optional<ContextFile>> ContextFileStore::GetAgentFile(
    std::string_view agent_id, std::string_view file_name) const {
  return First(
      store_.Query("SELECT file_name, content, updated_at FROM agent_context_files "
                   "WHERE agent_id = $1 AND file_name = $2",
                   {S(agent_id), S(file_name)}));
}

Status ContextFileStore::PutAgentFile(std::string_view agent_id, std::string_view file_name,
                                      std::string_view content) const {
  return Done(
      store_.Exec("INSERT INTO agent_context_files (agent_id, file_name, content, updated_at) "
                  "VALUES ($1, $2, $3, $4) ON CONFLICT (agent_id, file_name) "
                  "DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at",
                  {S(agent_id), S(file_name), S(content), UnixMillisNow()}));
}

Expected<bool> ContextFileStore::DeleteAgentFile(std::string_view agent_id,
                                                 std::string_view file_name) const {
  auto r = store_.Exec("DELETE FROM agent_context_files WHERE agent_id = $1 AND file_name = $2",
                       {S(agent_id), S(file_name)});
  if (!r) return std::unexpected(r.error());
  return *r > 0;
}

Expected<std::vector<ContextFile>> ContextFileStore::ListAgentFiles(
    std::string_view agent_id) const {
  return All(store_.Query(
      "SELECT file_name, content, updated_at FROM agent_context_files WHERE agent_id = $1",
      {S(agent_id)}));
}

Expected<std::optional<ContextFile>> ContextFileStore::GetUserFile(
    std::string_view agent_id, std::string_view user_id, std::string_view file_name) const {
  return First(
      store_.Query("SELECT file_name, content, updated_at FROM user_context_files "
                   "WHERE agent_id = $1 AND user_id = $2 AND file_name = $3",
                   {S(agent_id), S(user_id), S(file_name)}));
}

Status ContextFileStore::PutUserFile(std::string_view agent_id, std::string_view user_id,
                                     std::string_view file_name, std::string_view content) const {
  return Done(store_.Exec(
      "INSERT INTO user_context_files (agent_id, user_id, file_name, content, updated_at) "
      "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (agent_id, user_id, file_name) "
      "DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at",
      {S(agent_id), S(user_id), S(file_name), S(content), UnixMillisNow()}));
}

Expected<bool> ContextFileStore::DeleteUserFile(std::string_view agent_id, std::string_view user_id,
                                                std::string_view file_name) const {
  auto r = store_.Exec(
      "DELETE FROM user_context_files WHERE agent_id = $1 AND user_id = $2 AND file_name = $3",
      {S(agent_id), S(user_id), S(file_name)});
  if (!r) return std::unexpected(r.error());
  return *r > 0;
}

Expected<std::vector<ContextFile>> ContextFileStore::ListUserFiles(std::string_view agent_id,
                                                                   std::string_view user_id) const {
  return All(
      store_.Query("SELECT file_name, content, updated_at FROM user_context_files "
                   "WHERE agent_id = $1 AND user_id = $2",
                   {S(agent_id), S(user_id)}));
}

}  // namespace clawtools::store
