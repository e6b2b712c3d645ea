#include "store/connection_pool.h"

#include "store/str_cat.h"

namespace clawtools::store {

ConnectionPool::ConnectionPool(Factory factory, size_t max_size, std::chrono::milliseconds wait)
    : factory_(std::move(factory)), max_size_(max_size == 0 ? 1 : max_size), wait_(wait) {}

ConnectionPool::Lease::~Lease() {
  if (pool_ && conn_) pool_->Release(std::move(conn_));
}

Expected<ConnectionPool::Lease> ConnectionPool::Acquire() {
  std::unique_lock lock(mu_);
  bool ready = cv_.wait_for(lock, wait_, [&] { return !idle_.empty() || open_ < max_size_; });
  if (!ready) {
    return Fail(
        ErrorCode::kUnavailable, "storage busy",
        StrCat("no database connection free within ", wait_.count(), " ms (", open_, " open)"));
  }
  if (!idle_.empty()) {
    auto conn = std::move(idle_.back());
    idle_.pop_back();
    return Lease(this, std::move(conn));
  }
  ++open_;
  lock.unlock();
  // Connecting can take a while (network, TLS); other threads keep using the pool meanwhile.
  auto conn = factory_();
  if (!conn) {
    lock.lock();
    --open_;
    cv_.notify_one();
    return std::unexpected(conn.error());
  }
  return Lease(this, std::move(*conn));
}

void ConnectionPool::Release(std::unique_ptr<Connection> conn) {
  bool reusable = conn->Reusable();
  std::lock_guard lock(mu_);
  if (reusable) {
    idle_.push_back(std::move(conn));
  } else {
    conn.reset();
    --open_;
  }
  cv_.notify_one();
}

}  // namespace clawtools::store
