// Structured call log: one JSON line per tool call, written by the registry after scrubbing.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>

#include "core/call_context.h"
#include "core/json.h"
#include "core/result.h"

namespace clawtools {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3, kOff = 4 };

std::optional<LogLevel> ParseLogLevel(std::string_view s);

// Writes JSON lines to a FILE* (stderr by default). Thread-safe; one fwrite per line.
class CallLog {
 public:
  explicit CallLog(LogLevel level = LogLevel::kInfo, std::FILE* out = stderr)
      : level_(level), out_(out) {}

  bool enabled(LogLevel level) const { return level >= level_ && level_ != LogLevel::kOff; }
  void set_level(LogLevel level) { level_ = level; }

  // Applied to every string that carries tool output before it is written (the scrubber).
  void set_redactor(std::function<std::string(std::string_view)> redactor) {
    redactor_ = std::move(redactor);
  }

  void Call(const CallContext& ctx, const std::string& tool, const Result& result,
            std::chrono::microseconds duration);
  // A free-form event: {"level":..., "msg": msg, ...fields}.
  void Event(LogLevel level, std::string_view msg, Json fields = Json::object());

 private:
  void Write(LogLevel level, Json line);

  LogLevel level_;
  std::FILE* out_;
  std::function<std::string(std::string_view)> redactor_;
  std::mutex mu_;
};

}  // namespace clawtools
