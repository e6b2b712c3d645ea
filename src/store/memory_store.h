// Memory documents (MEMORY.md, memory/...) and their search chunks. A document belongs to an
// agent and a scope: a user id, or "" for the agent's global memory. Writing a Markdown
// document re-chunks it in the same transaction; new chunks are queued for embedding
// (pending_embedding) and the index hook is told about them after commit.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "store/store.h"

namespace clawtools::store {

struct MemoryDocument {
  int64_t id = 0;
  std::string agent_id;
  std::string user_id;  // "" = global scope
  std::string path;     // workspace-relative, e.g. "memory/2024/notes.md"
  std::string content;
  std::string hash;  // ContentHash(content)
  int64_t updated_at = 0;
};

struct MemoryChunk {
  int64_t id = 0;
  int64_t document_id = 0;
  int index = 0;  // 0-based position within the document
  int start_line = 0;
  int end_line = 0;
  std::string text;
  std::string hash;  // ContentHash(text), the key for an embedding cache
  bool pending_embedding = true;
  std::vector<float> embedding;  // empty until SetEmbedding
};

// Runs on the writing thread after a document's chunks were committed. It must not throw;
// the embedding work it triggers should be queued, not done inline on a tool call.
using MemoryIndexHook =
    std::function<void(const MemoryDocument& doc, const std::vector<MemoryChunk>& chunks)>;

// True for paths that are chunked on write (*.md).
bool IsIndexedPath(std::string_view path);

// Thread-safe; holds a reference to `store`, which must outlive it.
class MemoryStore {
 public:
  explicit MemoryStore(Store& store, MemoryIndexHook on_indexed = {})
      : store_(store), on_indexed_(std::move(on_indexed)) {}

  // Exactly this scope, no fallback (the router does that).
  Expected<std::optional<MemoryDocument>> GetDocument(std::string_view agent_id,
                                                      std::string_view user_id,
                                                      std::string_view path) const;
  // Insert or replace. Chunks are rewritten only when the content changed, so existing
  // embeddings survive an identical rewrite.
  Expected<MemoryDocument> PutDocument(std::string_view agent_id, std::string_view user_id,
                                       std::string_view path, std::string_view content) const;
  // True when a document was deleted (its chunks go with it).
  Expected<bool> DeleteDocument(std::string_view agent_id, std::string_view user_id,
                                std::string_view path) const;
  // The documents of exactly one scope, sorted by path.
  Expected<std::vector<MemoryDocument>> ListDocuments(std::string_view agent_id,
                                                      std::string_view user_id) const;

  // Ordered by index.
  Expected<std::vector<MemoryChunk>> ListChunks(int64_t document_id) const;
  // The embedding queue: up to `limit` chunks still waiting, oldest first.
  Expected<std::vector<MemoryChunk>> PendingChunks(int limit) const;
  // Stores the vector and takes the chunk off the queue. kNotFound for an unknown chunk.
  Status SetEmbedding(int64_t chunk_id, std::span<const float> embedding) const;

 private:
  Store& store_;
  const MemoryIndexHook on_indexed_;
};

}  // namespace clawtools::store
