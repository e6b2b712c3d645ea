// LineTransport's reader role: a caller inside SendRequest reads its own answer (no hand-off
// from the I/O thread), the I/O thread still delivers what comes between calls, and stop,
// Close() and the peer's death end a caller's wait at once.
#include "mcp/line_transport.h"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/unique_fd.h"
#include "mcp/jsonrpc.h"

namespace clawtools::mcp {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// The far end of a socketpair: answers requests whose method is "echo" with their params,
// ignores "hang", and can send anything unprompted.
class Peer {
 public:
  Peer() {
    int sv[2];
    ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
    ours_.reset(sv[0]);
    theirs_.reset(sv[1]);
    thread_ = std::thread([this] { Run(); });
  }
  ~Peer() {
    Kill();
    thread_.join();
  }

  std::unique_ptr<LineTransport> Transport() {
    UniqueFd read(::dup(theirs_.get()));
    return std::make_unique<LineTransport>(std::move(read), std::move(theirs_), UniqueFd(),
                                           LineTransportOptions{.describe = "peer"});
  }
  void Send(const Json& j) {
    std::string line = j.dump() + "\n";
    (void)!::send(ours_.get(), line.data(), line.size(), MSG_NOSIGNAL);
  }
  void Kill() { ::shutdown(ours_.get(), SHUT_RDWR); }

 private:
  void Run() {
    std::string buf;
    char chunk[4096];
    for (;;) {
      ssize_t n = ::recv(ours_.get(), chunk, sizeof chunk, 0);
      if (n <= 0) return;
      buf.append(chunk, static_cast<size_t>(n));
      for (size_t nl; (nl = buf.find('\n')) != std::string::npos;) {
        Json m = Json::parse(buf.substr(0, nl), nullptr, false);
        buf.erase(0, nl + 1);
        if (m.is_object() && m.value("method", "") == "echo") {
          Send(MakeResult(m["id"], m["params"]));
        }
      }
    }
  }

  UniqueFd ours_, theirs_;
  std::thread thread_;
};

// Collects what the transport delivers, with the thread it came on.
struct Inbox {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::pair<Json, std::thread::id>> got;

  void Add(Json m) {
    std::lock_guard lock(mu);
    got.emplace_back(std::move(m), std::this_thread::get_id());
    cv.notify_all();
  }
  bool Has(const Json& id) {
    std::lock_guard lock(mu);
    for (auto& [m, t] : got) {
      if (m.contains("id") && m["id"] == id) return true;
    }
    return false;
  }
  std::thread::id ThreadOf(const Json& id) {
    std::lock_guard lock(mu);
    for (auto& [m, t] : got) {
      if (m.contains("id") && m["id"] == id) return t;
    }
    return {};
  }
  bool WaitFor(const std::string& method, std::chrono::milliseconds limit) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, limit, [&] {
      for (auto& [m, t] : got) {
        if (m.value("method", "") == method) return true;
      }
      return false;
    });
  }
};

class LineTransportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    transport_ = peer_.Transport();
    ASSERT_TRUE(transport_->Start([this](Json m) { inbox_.Add(std::move(m)); },
                                  [this](const Error&) { closed_ = true; }));
  }
  AnswerWait Wait(int id, Clock::time_point deadline = Clock::time_point::max(),
                  std::stop_token stop = {}) {
    return {.deadline = deadline, .stop = stop, .answered = [this, id] { return inbox_.Has(id); }};
  }

  Peer peer_;
  Inbox inbox_;
  std::atomic<bool> closed_{false};
  std::unique_ptr<LineTransport> transport_;
};

TEST_F(LineTransportTest, CallerReadsItsOwnAnswer) {
  int on_caller = 0;
  for (int id = 1; id <= 50; ++id) {
    ASSERT_TRUE(transport_->SendRequest(MakeRequest(id, "echo", {{"n", id}}), Wait(id)));
    ASSERT_TRUE(inbox_.Has(id)) << "SendRequest returned before the answer, call " << id;
    on_caller += inbox_.ThreadOf(id) == std::this_thread::get_id();
  }
  // The I/O thread reads when it finds no caller for a while (a loaded machine can stall this
  // thread between two calls), so not always the caller: almost always.
  EXPECT_GE(on_caller, 40);
}

TEST_F(LineTransportTest, MessagesBetweenCallsStillArrive) {
  ASSERT_TRUE(transport_->SendRequest(MakeRequest(1, "echo", {}), Wait(1)));
  peer_.Send(MakeNotification("notifications/tools/list_changed"));
  EXPECT_TRUE(inbox_.WaitFor("notifications/tools/list_changed", 2s));
}

TEST_F(LineTransportTest, ConcurrentCallersAllGetTheirAnswers) {
  std::vector<std::thread> callers;
  std::atomic<int> missing{0};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        int id = t * 1000 + i + 1;
        (void)transport_->SendRequest(MakeRequest(id, "echo", {}), Wait(id, Clock::now() + 5s));
        if (!inbox_.Has(id)) ++missing;
      }
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(missing.load(), 0);
}

TEST_F(LineTransportTest, StopEndsTheWaitAtOnce) {
  std::stop_source stop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(100ms);
    stop.request_stop();
  });
  auto start = Clock::now();
  ASSERT_TRUE(transport_->SendRequest(MakeRequest(1, "hang", {}),
                                      Wait(1, Clock::time_point::max(), stop.get_token())));
  EXPECT_LT(Clock::now() - start, 1s);
  stopper.join();
}

TEST_F(LineTransportTest, DeadlineEndsTheWait) {
  auto start = Clock::now();
  ASSERT_TRUE(transport_->SendRequest(MakeRequest(1, "hang", {}), Wait(1, start + 100ms)));
  EXPECT_GE(Clock::now() - start, 100ms);
  EXPECT_LT(Clock::now() - start, 1s);
}

TEST_F(LineTransportTest, CloseWakesAReadingCaller) {
  std::thread closer([&] {
    std::this_thread::sleep_for(100ms);
    transport_->Close();
  });
  auto start = Clock::now();
  (void)transport_->SendRequest(MakeRequest(1, "hang", {}), Wait(1));
  EXPECT_LT(Clock::now() - start, 2s);
  closer.join();
  EXPECT_FALSE(closed_);  // Close() is not reported as the peer's end
}

TEST_F(LineTransportTest, PeerDeathSeenByACallerIsReportedOnce) {
  std::thread killer([&] {
    std::this_thread::sleep_for(100ms);
    peer_.Kill();
  });
  auto start = Clock::now();
  (void)transport_->SendRequest(MakeRequest(1, "hang", {}), Wait(1, start + 5s));
  EXPECT_LT(Clock::now() - start, 2s);
  killer.join();
  // on_close comes from the I/O thread, after the caller handed the end over.
  auto until = Clock::now() + 2s;
  while (!closed_ && Clock::now() < until) std::this_thread::sleep_for(5ms);
  EXPECT_TRUE(closed_);
}

}  // namespace
}  // namespace clawtools::mcp
