// Two `clawtools serve` processes on one PostgreSQL: a custom tool created through one gateway's
// HTTP API is callable through the other within a second (LISTEN/NOTIFY), without a restart.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "../store/test_database.h"

namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;
using clawtools::store::Backend;
using clawtools::store::testing::TestDatabase;

class Gateway {
 public:
  Gateway(const std::string& db, const fs::path& dir, const std::string& name) {
    fs::create_directories(dir / name / "ws");
    port_file_ = dir / name / "port";
    pid_ = fork();
    if (pid_ == 0) {
      setenv("CLAWTOOLS_HOME", (dir / name).c_str(), 1);
      setenv("CLAWTOOLS_ENCRYPTION_KEY", std::string(64, 'a').c_str(), 1);
      freopen((dir / name / "log").c_str(), "w", stderr);
      execl(CLAWTOOLS_BIN, CLAWTOOLS_BIN, "serve", "--listen", "127.0.0.1:0", "--db", db.c_str(),
            "--workspace", (dir / name / "ws").c_str(), "--port-file", port_file_.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 200 && !fs::exists(port_file_); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::ifstream(port_file_) >> port_;
  }
  ~Gateway() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status;
      waitpid(pid_, &status, 0);
    }
  }
  int port() const { return port_; }

  // curl keeps the test free of an HTTP client of its own.
  Json Request(const std::string& method, const std::string& path, const Json& body) const {
    std::string cmd = "curl -s -X " + method + " -H 'Content-Type: application/json' --data-binary @- "
                      "http://127.0.0.1:" + std::to_string(port_) + path;
    FILE* p = popen(("printf '%s' '" + body.dump() + "' | " + cmd).c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
    return Json::parse(out, nullptr, false);
  }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  fs::path port_file_;
};

TEST(TwoGateways, ToolCreatedOnOneIsCallableOnTheOtherWithinASecond) {
  auto db = TestDatabase::Create(Backend::kPostgres);
  if (!db) GTEST_SKIP() << db.error().log_message();
  fs::path dir = fs::temp_directory_path() / ("clawtools-two-gw-" + std::to_string(getpid()));
  fs::remove_all(dir);
  {
    Gateway a((*db)->url(), dir, "a");
    Gateway b((*db)->url(), dir, "b");
    ASSERT_GT(a.port(), 0);
    ASSERT_GT(b.port(), 0);

    Json def = {{"name", "shout"},
                {"description", "Upper-cases a word"},
                {"parameters",
                 {{"type", "object"},
                  {"properties", {{"word", {{"type", "string"}}}}},
                  {"required", {"word"}}}},
                {"command", "printf '%s' {{.word}} | tr a-z A-Z"},
                {"timeout_seconds", 5}};
    Json created = a.Request("POST", "/v1/custom-tools", def);
    ASSERT_TRUE(created.is_object()) << created.dump();
    ASSERT_EQ(created.value("name", ""), "shout") << created.dump();

    const auto start = std::chrono::steady_clock::now();
    Json out;
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) {
      out = b.Request("POST", "/v1/tools/shout/invoke", {{"args", {{"word", "hi; rm -rf /"}}}});
      if (out.is_object() && !out.value("is_error", true)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_FALSE(out.value("is_error", true)) << out.dump();
    EXPECT_EQ(out.value("for_llm", ""), "HI; RM -RF /") << out.dump();
  }
  fs::remove_all(dir);
}

}  // namespace
