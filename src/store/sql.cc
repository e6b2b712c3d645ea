#include "store/sql.h"

#include <charconv>
#include <cstdlib>

namespace clawtools::store {

const char* BackendName(Backend backend) {
  switch (backend) {
    case Backend::kSqlite:
      return "sqlite";
    case Backend::kPostgres:
      return "postgres";
  }
  return "unknown";
}

namespace {
const SqlValue kNull;
}  // namespace

const SqlValue& Row::at(size_t i) const {
  return i < values_.size() ? values_[i] : kNull;
}

bool Row::IsNull(size_t i) const {
  return std::holds_alternative<std::monostate>(at(i));
}

std::string Row::Text(size_t i) const {
  const SqlValue& v = at(i);
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  if (auto* n = std::get_if<int64_t>(&v)) return std::to_string(*n);
  if (auto* d = std::get_if<double>(&v)) return std::to_string(*d);
  if (auto* b = std::get_if<Blob>(&v)) return b->bytes;
  return {};
}

int64_t Row::Int(size_t i) const {
  const SqlValue& v = at(i);
  if (auto* n = std::get_if<int64_t>(&v)) return *n;
  if (auto* d = std::get_if<double>(&v)) return static_cast<int64_t>(*d);
  if (auto* s = std::get_if<std::string>(&v)) {
    int64_t out = 0;
    std::from_chars(s->data(), s->data() + s->size(), out);
    return out;
  }
  return 0;
}

double Row::Real(size_t i) const {
  const SqlValue& v = at(i);
  if (auto* d = std::get_if<double>(&v)) return *d;
  if (auto* n = std::get_if<int64_t>(&v)) return static_cast<double>(*n);
  if (auto* s = std::get_if<std::string>(&v)) return std::strtod(s->c_str(), nullptr);
  return 0;
}

std::string Row::BlobBytes(size_t i) const {
  const SqlValue& v = at(i);
  if (auto* b = std::get_if<Blob>(&v)) return b->bytes;
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  return {};
}

std::string TranslatePlaceholdersForSqlite(std::string_view sql) {
  std::string out;
  out.reserve(sql.size());
  size_t i = 0;
  auto copy_until = [&](char close) {
    // Copies a quoted run; a doubled quote character is an escaped quote and stays inside.
    out += sql[i++];
    while (i < sql.size()) {
      char c = sql[i++];
      out += c;
      if (c == close) {
        if (i < sql.size() && sql[i] == close) {
          out += sql[i++];
          continue;
        }
        return;
      }
    }
  };
  while (i < sql.size()) {
    char c = sql[i];
    if (c == '\'' || c == '"') {
      copy_until(c);
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      size_t end = sql.find('\n', i);
      end = end == std::string_view::npos ? sql.size() : end;
      out.append(sql.substr(i, end - i));
      i = end;
    } else if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
      size_t end = sql.find("*/", i + 2);
      end = end == std::string_view::npos ? sql.size() : end + 2;
      out.append(sql.substr(i, end - i));
      i = end;
    } else if (c == '$' && i + 1 < sql.size() && sql[i + 1] >= '0' && sql[i + 1] <= '9') {
      out += '?';
      ++i;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

}  // namespace clawtools::store
