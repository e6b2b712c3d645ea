// Values, parameters and result rows shared by every store backend. SQL text written against
// this layer uses PostgreSQL-style `$1`..`$N` placeholders; the SQLite backend translates them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace clawtools::store {

enum class Backend { kSqlite, kPostgres };

const char* BackendName(Backend backend);

// Binary data (BLOB on SQLite, BYTEA on PostgreSQL). Distinct from text so that both backends
// transfer it byte-exact.
struct Blob {
  std::string bytes;
  bool operator==(const Blob&) const = default;
};

// NULL, integer, real, text or blob. Booleans are stored as 0/1 integers on both backends.
using SqlValue = std::variant<std::monostate, int64_t, double, std::string, Blob>;
using Params = std::vector<SqlValue>;

// One result row. Accessors convert leniently between integer and text because the backends
// report the same column differently (PostgreSQL text format vs SQLite dynamic typing); an
// out-of-range index reads as NULL.
class Row {
 public:
  Row() = default;
  explicit Row(std::vector<SqlValue> values) : values_(std::move(values)) {}

  size_t size() const { return values_.size(); }
  const SqlValue& at(size_t i) const;
  bool IsNull(size_t i) const;
  // NULL reads as "" / 0 / empty blob.
  std::string Text(size_t i) const;
  int64_t Int(size_t i) const;
  double Real(size_t i) const;
  std::string BlobBytes(size_t i) const;

 private:
  std::vector<SqlValue> values_;
};

using Rows = std::vector<Row>;

// Rewrites `$N` placeholders to SQLite's `?N`, leaving string literals, quoted identifiers and
// comments untouched. Exposed for tests.
std::string TranslatePlaceholdersForSqlite(std::string_view sql);

}  // namespace clawtools::store
