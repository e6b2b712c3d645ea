#include "tools/runtime/process_tool.h"

#include <signal.h>

#include <algorithm>

#include "tools/runtime/output_report.h"

namespace clawtools {
namespace {

Json Schema() {
  return Json::parse(R"J({"type":"object","properties":{
    "action":{"type":"string","enum":["start","list","poll","write","signal","kill","remove"]},
    "command":{"type":"string","description":"start: the shell command to run in the background"},
    "working_dir":{"type":"string","description":"start: working directory relative to the workspace"},
    "id":{"type":"string","description":"the process id returned by start"},
    "offset":{"type":"integer","minimum":0,"description":"poll: absolute byte offset to read from (the previous poll's next_offset)"},
    "max_bytes":{"type":"integer","minimum":1,"description":"poll: at most this many bytes"},
    "data":{"type":"string","description":"write: text for the process's stdin"},
    "eof":{"type":"boolean","description":"write: close stdin afterwards"},
    "signal":{"type":"string","description":"signal: TERM, INT, HUP, QUIT, KILL, USR1, USR2, STOP or CONT"}},
    "required":["action"]})J");
}

std::optional<int> SignalNumber(std::string name) {
  if (name.starts_with("SIG")) name = name.substr(3);
  static const std::pair<const char*, int> kSignals[] = {
      {"TERM", SIGTERM}, {"INT", SIGINT},   {"HUP", SIGHUP},   {"QUIT", SIGQUIT}, {"KILL", SIGKILL},
      {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"STOP", SIGSTOP}, {"CONT", SIGCONT}};
  for (auto [n, s] : kSignals)
    if (name == n) return s;
  return std::nullopt;
}

std::string State(const ProcessRegistry::Info& i) {
  return i.running ? "running" : "exited " + std::to_string(*i.exit_code);
}

}  // namespace

ProcessTool::ProcessTool(std::shared_ptr<const CommandLauncher> launcher,
                         std::shared_ptr<ProcessRegistry> registry)
    : SimpleTool("process",
                 "Manage background processes of this session: start a command, list, poll its "
                 "output from an "
                 "offset, write to its stdin, send a signal, kill, remove.",
                 Schema()),
      launcher_(std::move(launcher)),
      registry_(std::move(registry)) {}

Result ProcessTool::Execute(const CallContext& ctx, const Json& args) const {
  const std::string action = args.value("action", "");
  const std::string& session = ctx.session_key();
  const std::string id = args.value("id", "");
  auto need_id = [&]() -> std::optional<Result> {
    if (id.empty()) return Result::Fail("id is required for " + action);
    return std::nullopt;
  };

  if (action == "start") {
    const std::string command = args.value("command", "");
    auto launched = launcher_->Launch(ctx, command, args.value("working_dir", ""));
    if (!launched) return Result::FromError(launched.error());
    std::string where = launched->where;
    auto added = registry_->Add(session, command, std::move(*launched));
    if (!added) return Result::FromError(added.error());
    return Result::Text("started " + *added + " [" + (where.starts_with("host") ? "on " : "in ") +
                        where + "]; poll it with {\"action\":\"poll\",\"id\":\"" + *added +
                        "\",\"offset\":0}");
  }
  if (action == "list") {
    auto all = registry_->List(session);
    if (all.empty()) return Result::Text("no background processes in this session");
    std::string out;
    for (const auto& i : all)
      out += i.id + "  " + State(i) + "  " + std::to_string(i.output_bytes) + " bytes  " +
             std::to_string(i.age.count()) + " s  [" + i.where + "]  " + i.command + "\n";
    return Result::Text(out);
  }
  if (auto missing = need_id()) return *missing;
  if (action == "poll") {
    size_t max = std::min<size_t>(args.value("max_bytes", launcher_->settings().max_output_chars),
                                  launcher_->settings().max_output_chars);
    auto o = registry_->Poll(session, id, args.value("offset", uint64_t{0}), max);
    if (!o) return Result::FromError(o.error());
    std::string data = Utf8Head(o->data, max);
    uint64_t next = o->offset + data.size();
    std::string head = "[" + id + " " + State(o->info) + "; bytes " + std::to_string(o->offset) +
                       ".." + std::to_string(next) + " of " + std::to_string(o->info.output_bytes) +
                       "; next_offset " + std::to_string(next) + "]";
    if (o->dropped)
      head += "\n[" + std::to_string(o->dropped) + " bytes before offset " +
              std::to_string(o->offset) + " scrolled out of the buffer and are lost]";
    return Result::Text(head + "\n" + data);
  }
  if (action == "write") {
    auto n = registry_->Write(session, id, args.value("data", ""), args.value("eof", false));
    if (!n) return Result::FromError(n.error());
    return Result::Text("wrote " + std::to_string(*n) + " bytes to " + id +
                        (args.value("eof", false) ? "; stdin closed" : ""));
  }
  if (action == "signal" || action == "kill") {
    auto sig =
        action == "kill" ? std::optional<int>(SIGKILL) : SignalNumber(args.value("signal", ""));
    if (!sig)
      return Result::Fail(
          "unknown signal; use TERM, INT, HUP, QUIT, KILL, USR1, USR2, STOP or CONT");
    if (auto s = registry_->Signal(session, id, *sig); !s) return Result::FromError(s.error());
    return Result::Text("sent " + std::string(sigabbrev_np(*sig)) + " to " + id);
  }
  if (action == "remove") {
    if (auto s = registry_->Remove(session, id); !s) return Result::FromError(s.error());
    return Result::Text("removed " + id);
  }
  return Result::Fail("unknown action '" + action + "'");
}

}  // namespace clawtools
