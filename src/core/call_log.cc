#include "core/call_log.h"

#include <ctime>

namespace clawtools {
namespace {

constexpr size_t kLoggedOutputChars = 500;

const char* LevelName(LogLevel l) {
  switch (l) {
    case LogLevel::kDebug: return "debug";
    case LogLevel::kInfo: return "info";
    case LogLevel::kWarn: return "warn";
    case LogLevel::kError: return "error";
    case LogLevel::kOff: return "off";
  }
  return "info";
}

std::string Timestamp() {
  auto now = std::chrono::system_clock::now();
  auto secs = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

// Cuts at a UTF-8 boundary so the JSON line stays valid.
std::string Truncate(std::string_view s, size_t n) {
  if (s.size() <= n) return std::string(s);
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return std::string(s.substr(0, n)) + "...";
}

}  // namespace

std::optional<LogLevel> ParseLogLevel(std::string_view s) {
  if (s == "debug") return LogLevel::kDebug;
  if (s == "info") return LogLevel::kInfo;
  if (s == "warn") return LogLevel::kWarn;
  if (s == "error") return LogLevel::kError;
  if (s == "off") return LogLevel::kOff;
  return std::nullopt;
}

void CallLog::Call(const CallContext& ctx, const std::string& tool, const Result& result,
                   std::chrono::microseconds duration) {
  const LogLevel level = result.is_error ? LogLevel::kWarn : LogLevel::kInfo;
  if (!enabled(level)) return;
  Json line = {{"msg", "tool call"},
               {"tool", tool},
               {"duration_ms", duration.count() / 1000.0},
               {"is_error", result.is_error}};
  if (result.async) line["async"] = true;
  if (!ctx.session_key().empty()) line["session"] = ctx.session_key();
  if (!ctx.agent_id().empty()) line["agent"] = ctx.agent_id();
  if (!ctx.user_id().empty()) line["user"] = ctx.user_id();
  if (!ctx.channel().empty()) line["channel"] = ctx.channel();
  if (ctx.subagent_depth() > 0) line["subagent_depth"] = ctx.subagent_depth();
  if (result.is_error) {
    // Tool output in logs passes the same redaction as output to the model.
    // Redact before cutting, so a secret straddling the cut is still recognised whole.
    std::string_view head = std::string_view(result.for_llm).substr(0, kLoggedOutputChars + 16384);
    line["error"] = Truncate(redactor_ ? redactor_(head) : std::string(head), kLoggedOutputChars);
  }
  Write(level, std::move(line));
}

void CallLog::Event(LogLevel level, std::string_view msg, Json fields) {
  if (!enabled(level)) return;
  Json line = std::move(fields);
  if (!line.is_object()) line = Json::object();
  line["msg"] = std::string(msg);
  Write(level, std::move(line));
}

void CallLog::Write(LogLevel level, Json line) {
  Json out = {{"ts", Timestamp()}, {"level", LevelName(level)}};
  out.update(line);
  std::string text = out.dump(-1, ' ', false, Json::error_handler_t::replace);
  text.push_back('\n');
  std::lock_guard lock(mu_);
  std::fwrite(text.data(), 1, text.size(), out_);
  std::fflush(out_);
}

}  // namespace clawtools
