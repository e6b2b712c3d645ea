#include "store/memory_store.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "store/chunking.h"
#include "store/clock.h"
#include "store/str_cat.h"

namespace clawtools::store {
namespace {

// Embeddings are stored as raw float32 in native byte order; pin that order so a database
// moved between hosts stays readable.
static_assert(std::endian::native == std::endian::little);

constexpr std::string_view kDocColumns = "id, agent_id, user_id, path, content, hash, updated_at";
constexpr std::string_view kChunkColumns =
    "id, document_id, chunk_index, start_line, end_line, text, hash, pending_embedding, "
    "embedding";

std::string S(std::string_view s) {
  return std::string(s);
}

MemoryDocument DocFromRow(const Row& r) {
  return {r.Int(0), r.Text(1), r.Text(2), r.Text(3), r.Text(4), r.Text(5), r.Int(6)};
}

MemoryChunk ChunkFromRow(const Row& r) {
  MemoryChunk c{r.Int(0),
                r.Int(1),
                static_cast<int>(r.Int(2)),
                static_cast<int>(r.Int(3)),
                static_cast<int>(r.Int(4)),
                r.Text(5),
                r.Text(6),
                r.Int(7) != 0,
                {}};
  std::string bytes = r.BlobBytes(8);
  c.embedding.resize(bytes.size() / sizeof(float));
  // An empty vector's data() may be null, which memcpy may not be given even for 0 bytes.
  if (!c.embedding.empty())
    std::memcpy(c.embedding.data(), bytes.data(), c.embedding.size() * sizeof(float));
  return c;
}

Expected<std::vector<MemoryChunk>> Chunks(Expected<Rows> rows) {
  if (!rows) return std::unexpected(rows.error());
  std::vector<MemoryChunk> out;
  for (const Row& r : *rows) out.push_back(ChunkFromRow(r));
  return out;
}

}  // namespace

bool IsIndexedPath(std::string_view path) {
  return path.ends_with(".md");
}

Expected<std::optional<MemoryDocument>> MemoryStore::GetDocument(std::string_view agent_id,
                                                                 std::string_view user_id,
                                                                 std::string_view path) const {
  auto rows = store_.Query(
      StrCat("SELECT ", kDocColumns,
             " FROM memory_documents WHERE agent_id = $1 AND user_id = $2 AND path = $3"),
      {S(agent_id), S(user_id), S(path)});
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::nullopt;
  return DocFromRow(rows->front());
}

Expected<MemoryDocument> MemoryStore::PutDocument(std::string_view agent_id,
                                                  std::string_view user_id, std::string_view path,
                                                  std::string_view content) const {
  MemoryDocument doc{0,          S(agent_id),          S(user_id),     S(path),
                     S(content), ContentHash(content), UnixMillisNow()};
  std::vector<MemoryChunk> chunks;
  bool reindexed = false;
  auto status = store_.InTransaction([&](Transaction& tx) -> Status {
    auto old = tx.Query(
        "SELECT hash FROM memory_documents WHERE agent_id = $1 AND user_id = $2 AND path = $3",
        {doc.agent_id, doc.user_id, doc.path});
    if (!old) return std::unexpected(old.error());
    bool changed = old->empty() || old->front().Text(0) != doc.hash;

    auto id = tx.Query(
        "INSERT INTO memory_documents (agent_id, user_id, path, content, hash, updated_at) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (agent_id, user_id, path) DO UPDATE SET "
        "content = excluded.content, hash = excluded.hash, updated_at = excluded.updated_at "
        "RETURNING id",
        {doc.agent_id, doc.user_id, doc.path, doc.content, doc.hash, doc.updated_at});
    if (!id) return std::unexpected(id.error());
    doc.id = id->front().Int(0);
    if (!changed || !IsIndexedPath(doc.path)) return {};

    reindexed = true;
    if (auto r = tx.Exec("DELETE FROM memory_chunks WHERE document_id = $1", {doc.id}); !r) {
      return std::unexpected(r.error());
    }
    int index = 0;
    for (TextChunk& t : ChunkText(doc.content)) {
      MemoryChunk c{0, doc.id, index++, t.start_line, t.end_line, std::move(t.text), {}, true, {}};
      c.hash = ContentHash(c.text);
      auto cid = tx.Query(
          "INSERT INTO memory_chunks (document_id, chunk_index, start_line, end_line, text, hash, "
          "pending_embedding) VALUES ($1, $2, $3, $4, $5, $6, 1) RETURNING id",
          {c.document_id, int64_t{c.index}, int64_t{c.start_line}, int64_t{c.end_line}, c.text,
           c.hash});
      if (!cid) return std::unexpected(cid.error());
      c.id = cid->front().Int(0);
      chunks.push_back(std::move(c));
    }
    return {};
  });
  if (!status) return std::unexpected(status.error());
  if (reindexed && on_indexed_) on_indexed_(doc, chunks);
  return doc;
}

Expected<bool> MemoryStore::DeleteDocument(std::string_view agent_id, std::string_view user_id,
                                           std::string_view path) const {
  auto r =
      store_.Exec("DELETE FROM memory_documents WHERE agent_id = $1 AND user_id = $2 AND path = $3",
                  {S(agent_id), S(user_id), S(path)});
  if (!r) return std::unexpected(r.error());
  return *r > 0;
}

Expected<std::vector<MemoryDocument>> MemoryStore::ListDocuments(std::string_view agent_id,
                                                                 std::string_view user_id) const {
  auto rows = store_.Query(
      StrCat("SELECT ", kDocColumns, " FROM memory_documents WHERE agent_id = $1 AND user_id = $2"),
      {S(agent_id), S(user_id)});
  if (!rows) return std::unexpected(rows.error());
  std::vector<MemoryDocument> out;
  for (const Row& r : *rows) out.push_back(DocFromRow(r));
  // Bytewise order on both backends (ORDER BY would follow the server's collation).
  std::ranges::sort(out, {}, &MemoryDocument::path);
  return out;
}

Expected<std::vector<MemoryChunk>> MemoryStore::ListChunks(int64_t document_id) const {
  return Chunks(
      store_.Query(StrCat("SELECT ", kChunkColumns,
                          " FROM memory_chunks WHERE document_id = $1 ORDER BY chunk_index"),
                   {document_id}));
}

Expected<std::vector<MemoryChunk>> MemoryStore::PendingChunks(int limit) const {
  return Chunks(
      store_.Query(StrCat("SELECT ", kChunkColumns,
                          " FROM memory_chunks WHERE pending_embedding = 1 ORDER BY id LIMIT $1"),
                   {int64_t{limit}}));
}

Status MemoryStore::SetEmbedding(int64_t chunk_id, std::span<const float> embedding) const {
  Blob blob{std::string(reinterpret_cast<const char*>(embedding.data()), embedding.size_bytes())};
  auto r =
      store_.Exec("UPDATE memory_chunks SET embedding = $1, pending_embedding = 0 WHERE id = $2",
                  {std::move(blob), chunk_id});
  if (!r) return std::unexpected(r.error());
  if (*r == 0) return Fail(ErrorCode::kNotFound, "memory chunk not found");
  return {};
}

}  // namespace clawtools::store
