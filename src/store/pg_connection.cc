// PostgreSQL backend over libpq: parameters go as text (blobs as binary), results come back in
// text format and are converted by column type.
#include <libpq-fe.h>

#include <charconv>
#include <cstring>
#include <memory>
#include <string>

#include "store/connection.h"
#include "store/str_cat.h"

namespace clawtools::store {
namespace {

// Type OIDs from pg_type.h (stable across PostgreSQL versions).
constexpr Oid kBoolOid = 16;
constexpr Oid kByteaOid = 17;
constexpr Oid kInt8Oid = 20;
constexpr Oid kInt2Oid = 21;
constexpr Oid kInt4Oid = 23;
constexpr Oid kOidOid = 26;
constexpr Oid kFloat4Oid = 700;
constexpr Oid kFloat8Oid = 701;

struct ConnCloser {
  void operator()(PGconn* c) const { PQfinish(c); }
};
struct ResultClearer {
  void operator()(PGresult* r) const { PQclear(r); }
};
using ConnPtr = std::unique_ptr<PGconn, ConnCloser>;
using ResultPtr = std::unique_ptr<PGresult, ResultClearer>;

ErrorCode CodeForSqlState(std::string_view state) {
  if (state == "23505") return ErrorCode::kAlreadyExists;
  if (state.starts_with("23") || state.starts_with("22")) return ErrorCode::kInvalidArgument;
  if (state.starts_with("08") || state.starts_with("53") || state.starts_with("57P") ||
      state == "40001" || state == "40P01") {
    return ErrorCode::kUnavailable;
  }
  if (state == "57014") return ErrorCode::kCancelled;
  return ErrorCode::kInternal;
}

void IgnoreNotice(void*, const char*) {}

class PgConnection final : public Connection {
 public:
  explicit PgConnection(ConnPtr conn) : conn_(std::move(conn)) {}

  Backend backend() const override { return Backend::kPostgres; }

  Expected<int64_t> Exec(std::string_view sql, const Params& params) override {
    auto res = Run(sql, params);
    if (!res) return std::unexpected(res.error());
    int64_t affected = 0;
    const char* n = PQcmdTuples(res->get());
    std::from_chars(n, n + std::strlen(n), affected);
    return affected;
  }

  Expected<Rows> Query(std::string_view sql, const Params& params) override {
    auto res = Run(sql, params);
    if (!res) return std::unexpected(res.error());
    PGresult* r = res->get();
    const int nrows = PQntuples(r);
    const int ncols = PQnfields(r);
    Rows rows;
    rows.reserve(nrows);
    for (int i = 0; i < nrows; ++i) {
      std::vector<SqlValue> values;
      values.reserve(ncols);
      for (int c = 0; c < ncols; ++c) values.push_back(Value(r, i, c));
      rows.emplace_back(std::move(values));
    }
    return rows;
  }

  Status ExecScript(std::string_view sql) override {
    ResultPtr res(PQexec(conn_.get(), std::string(sql).c_str()));
    auto checked = Check(res, sql);
    if (!checked) return std::unexpected(checked.error());
    return {};
  }

  bool Reusable() override {
    return PQstatus(conn_.get()) == CONNECTION_OK &&
           PQtransactionStatus(conn_.get()) == PQTRANS_IDLE;
  }

 private:
  Expected<ResultPtr> Run(std::string_view sql, const Params& params) {
    std::vector<std::string> text(params.size());
    std::vector<const char*> values(params.size(), nullptr);
    std::vector<int> lengths(params.size(), 0);
    std::vector<int> formats(params.size(), 0);
    for (size_t i = 0; i < params.size(); ++i) {
      const SqlValue& p = params[i];
      if (auto* n = std::get_if<int64_t>(&p)) {
        text[i] = std::to_string(*n);
      } else if (auto* d = std::get_if<double>(&p)) {
        char buf[64];
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, *d);
        text[i].assign(buf, end);
      } else if (auto* s = std::get_if<std::string>(&p)) {
        // libpq passes text as a C string: a NUL would silently truncate the value.
        if (s->find('\0') != std::string::npos) {
          return Fail(ErrorCode::kInvalidArgument, "text must not contain NUL bytes",
                      StrCat("NUL byte in parameter ", i + 1, " of: ", sql));
        }
        values[i] = s->c_str();
        continue;
      } else if (auto* b = std::get_if<Blob>(&p)) {
        values[i] = b->bytes.data();
        lengths[i] = static_cast<int>(b->bytes.size());
        formats[i] = 1;
        continue;
      } else {
        continue;  // NULL
      }
      values[i] = text[i].c_str();
    }
    ResultPtr res(PQexecParams(conn_.get(), std::string(sql).c_str(),
                               static_cast<int>(params.size()), nullptr, values.data(),
                               lengths.data(), formats.data(), 0));
    return Check(res, sql);
  }

  Expected<ResultPtr> Check(ResultPtr& res, std::string_view sql) {
    if (!res) {
      return Fail(ErrorCode::kUnavailable, "storage unavailable",
                  StrCat("postgres: ", PQerrorMessage(conn_.get())));
    }
    ExecStatusType st = PQresultStatus(res.get());
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return std::move(res);
    const char* state = PQresultErrorField(res.get(), PG_DIAG_SQLSTATE);
    ErrorCode code = state ? CodeForSqlState(state)
                           : (PQstatus(conn_.get()) == CONNECTION_OK ? ErrorCode::kInternal
                                                                     : ErrorCode::kUnavailable);
    std::string msg = PQresultErrorMessage(res.get());
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    return Fail(code, code == ErrorCode::kUnavailable ? "storage unavailable" : "storage error",
                StrCat("postgres [", state ? state : "-", "]: ", msg, " in: ", sql));
  }

  static SqlValue Value(PGresult* r, int row, int col) {
    if (PQgetisnull(r, row, col)) return std::monostate{};
    const char* v = PQgetvalue(r, row, col);
    const int len = PQgetlength(r, row, col);
    switch (PQftype(r, col)) {
      case kInt2Oid:
      case kInt4Oid:
      case kInt8Oid:
      case kOidOid: {
        int64_t n = 0;
        std::from_chars(v, v + len, n);
        return n;
      }
      case kBoolOid:
        return static_cast<int64_t>(v[0] == 't');
      case kFloat4Oid:
      case kFloat8Oid:
        return std::strtod(v, nullptr);
      case kByteaOid: {
        size_t n = 0;
        std::unique_ptr<unsigned char, decltype(&PQfreemem)> bytes(
            PQunescapeBytea(reinterpret_cast<const unsigned char*>(v), &n), &PQfreemem);
        return Blob{bytes ? std::string(reinterpret_cast<const char*>(bytes.get()), n)
                          : std::string()};
      }
      default:
        return std::string(v, len);
    }
  }

  ConnPtr conn_;
};

}  // namespace

Expected<std::unique_ptr<Connection>> ConnectPostgres(const std::string& conninfo,
                                                      int connect_timeout_seconds) {
  // Validate first so that a malformed URL is reported as such, not as a connection failure.
  char* err = nullptr;
  PQconninfoOption* parsed = PQconninfoParse(conninfo.c_str(), &err);
  std::unique_ptr<char, decltype(&PQfreemem)> owned_err(err, &PQfreemem);
  if (!parsed) {
    return Fail(ErrorCode::kInvalidArgument, "invalid database URL",
                StrCat("postgres conninfo: ", err ? err : "out of memory"));
  }
  PQconninfoFree(parsed);

  // The expanded dbname comes last so that its own connect_timeout wins over ours.
  std::string timeout = std::to_string(connect_timeout_seconds);
  const char* keys[] = {"connect_timeout", "client_encoding", "dbname", nullptr};
  const char* vals[] = {timeout.c_str(), "UTF8", conninfo.c_str(), nullptr};
  ConnPtr conn(PQconnectdbParams(keys, vals, /*expand_dbname=*/1));
  if (!conn || PQstatus(conn.get()) != CONNECTION_OK) {
    std::string msg = conn ? PQerrorMessage(conn.get()) : "out of memory";
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    return Fail(ErrorCode::kUnavailable, "cannot connect to the database",
                StrCat("cannot connect to PostgreSQL: ", msg));
  }
  PQsetNoticeProcessor(conn.get(), &IgnoreNotice, nullptr);
  return std::make_unique<PgConnection>(std::move(conn));
}

}  // namespace clawtools::store
