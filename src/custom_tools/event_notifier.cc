#include "custom_tools/event_notifier.h"

#include <libpq-fe.h>
#include <poll.h>

#include "custom_tools/custom_tool_store.h"

namespace clawtools::custom_tools {
namespace {

struct PgFinish {
  void operator()(PGconn* c) const { PQfinish(c); }
};
using PgConn = std::unique_ptr<PGconn, PgFinish>;

bool IsPostgresUrl(std::string_view url) {
  return url.starts_with("postgres://") || url.starts_with("postgresql://") ||
         url.find("host=") != std::string_view::npos ||
         url.find("dbname=") != std::string_view::npos;
}

// LISTEN on the channel; the quoted identifier keeps the ':' of "cache:custom_tools".
bool Listen(PGconn* conn) {
  std::string sql = "LISTEN \"" + std::string(kChangeChannel) + "\"";
  PGresult* res = PQexec(conn, sql.c_str());
  bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
  PQclear(res);
  return ok;
}

}  // namespace

void EventNotifier::Subscribe(Callback cb) {
  std::lock_guard lock(mu_);
  subscribers_.push_back(std::move(cb));
}

void EventNotifier::Publish() {
  std::vector<Callback> subs;
  {
    std::lock_guard lock(mu_);
    subs = subscribers_;
  }
  for (auto& cb : subs) cb();
}

PgListenNotifier::PgListenNotifier(std::string conninfo)
    : conninfo_(std::move(conninfo)), thread_([this](std::stop_token st) { Run(st); }) {}

PgListenNotifier::~PgListenNotifier() {
  thread_.request_stop();
  state_cv_.notify_all();
}

bool PgListenNotifier::WaitUntilListening(std::chrono::milliseconds timeout) {
  std::unique_lock lock(state_mu_);
  return state_cv_.wait_for(lock, timeout, [&] { return listening_; });
}

void PgListenNotifier::Run(std::stop_token stop) {
  auto backoff = std::chrono::milliseconds(100);
  bool reconnecting = false;
  while (!stop.stop_requested()) {
    PgConn conn(PQconnectdb(conninfo_.c_str()));
    if (PQstatus(conn.get()) != CONNECTION_OK || !Listen(conn.get())) {
      std::unique_lock lock(state_mu_);
      listening_ = false;
      state_cv_.wait_for(lock, stop, backoff, [] { return false; });
      backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
      reconnecting = true;
      continue;
    }
    backoff = std::chrono::milliseconds(100);
    {
      std::lock_guard lock(state_mu_);
      listening_ = true;
    }
    state_cv_.notify_all();
    if (reconnecting) Publish();  // whatever changed while we were away
    reconnecting = true;
    const int fd = PQsocket(conn.get());
    while (!stop.stop_requested()) {
      pollfd p{.fd = fd, .events = POLLIN, .revents = 0};
      // Bounded so that a stop request is noticed promptly.
      int n = poll(&p, 1, 200);
      if (n < 0 && errno != EINTR) break;
      if (n <= 0) continue;
      // A closed or broken connection keeps the socket readable: reconnect, don't spin.
      if ((p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0) break;
      if (PQconsumeInput(conn.get()) != 1 || PQstatus(conn.get()) != CONNECTION_OK) break;
      bool changed = false;
      while (PGnotify* note = PQnotifies(conn.get())) {
        changed = true;
        PQfreemem(note);
      }
      if (changed) Publish();
    }
    std::lock_guard lock(state_mu_);
    listening_ = false;
  }
}

VersionPollNotifier::VersionPollNotifier(const CustomToolStore& store,
                                         std::chrono::milliseconds interval)
    : store_(store),
      interval_(interval),
      last_(store.Version()),
      thread_([this](std::stop_token st) { Run(st); }) {}

VersionPollNotifier::~VersionPollNotifier() {
  thread_.request_stop();
  cv_.notify_all();
}

void VersionPollNotifier::Run(std::stop_token stop) {
  while (!stop.stop_requested()) {
    {
      std::unique_lock lock(mu_);
      cv_.wait_for(lock, stop, interval_, [] { return false; });
    }
    if (stop.stop_requested()) break;
    auto now = store_.Version();
    if (!now) continue;  // the database is briefly unavailable; try again next tick
    if (!last_ || *now != *last_) {
      last_ = now;
      Publish();
    }
  }
}

std::unique_ptr<EventNotifier> MakeNotifier(std::string_view db_url,
                                            const CustomToolStore& store) {
  if (IsPostgresUrl(db_url)) return std::make_unique<PgListenNotifier>(std::string(db_url));
  if (db_url == ":memory:" || db_url == "sqlite::memory:")
    return std::make_unique<InProcessNotifier>();
  return std::make_unique<VersionPollNotifier>(store, std::chrono::seconds(1));
}

}  // namespace clawtools::custom_tools
