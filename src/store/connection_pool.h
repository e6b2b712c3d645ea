// A bounded pool of Connections (internal). Connections are opened lazily up to `max_size`;
// Acquire blocks until one is free or `wait` elapses, so a thread that already holds a
// connection and asks for another on a full pool gets kUnavailable instead of a deadlock.
// The pool must outlive every Lease it hands out.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/error.h"
#include "store/connection.h"

namespace clawtools::store {

class ConnectionPool {
 public:
  using Factory = std::function<Expected<std::unique_ptr<Connection>>()>;

  ConnectionPool(Factory factory, size_t max_size, std::chrono::milliseconds wait);
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // Exclusive use of one connection; returns it to the pool on destruction (or closes it when
  // it is no longer reusable).
  class Lease {
   public:
    Lease(Lease&& other) noexcept
        : pool_(std::exchange(other.pool_, nullptr)), conn_(std::move(other.conn_)) {}
    Lease& operator=(Lease&&) = delete;
    ~Lease();

    Connection& operator*() const { return *conn_; }
    Connection* operator->() const { return conn_.get(); }

   private:
    friend class ConnectionPool;
    Lease(ConnectionPool* pool, std::unique_ptr<Connection> conn)
        : pool_(pool), conn_(std::move(conn)) {}

    ConnectionPool* pool_;
    std::unique_ptr<Connection> conn_;
  };

  Expected<Lease> Acquire();

 private:
  void Release(std::unique_ptr<Connection> conn);

  const Factory factory_;
  const size_t max_size_;
  const std::chrono::milliseconds wait_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Connection>> idle_;
  size_t open_ = 0;  // idle + leased + being opened
};

}  // namespace clawtools::store
