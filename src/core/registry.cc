#include "core/registry.h"

#include <atomic>
#include <exception>
#include <mutex>

#include "core/schema_validator.h"

namespace clawtools {
namespace {

using Clock = std::chrono::steady_clock;

uint64_t NextGeneration() {
  static std::atomic<uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

// GoClaw's guard: a model that ran out of output tokens sends "{}" for a tool with
// required parameters. Saying so helps the model recover better than a schema error.
std::optional<Result> EmptyArgsGuard(const Tool& tool, const Json& args) {
  if (!args.empty()) return std::nullopt;
  const Json& params = tool.parameters();
  auto it = params.find("required");
  if (it == params.end() || !it->is_array() || it->empty()) return std::nullopt;
  std::string names;
  for (const auto& r : *it) {
    if (!r.is_string()) continue;
    if (!names.empty()) names += ", ";
    names += r.get<std::string>();
  }
  return Result::Fail("Tool call had empty arguments (required: " + names +
                      "). This usually means your previous response was too long for the API to "
                      "include tool parameters. Try again with shorter content - split into "
                      "smaller parts if needed.");
}

Result RunContained(const Tool& tool, const CallContext& ctx, const Json& args) {
  try {
    return tool.Execute(ctx, args);
  } catch (const std::exception& e) {
    return Result::Fail("tool " + tool.name() + " failed with an internal error: " + e.what(),
                        ErrorCode::kInternal);
  } catch (...) {
    return Result::Fail("tool " + tool.name() + " failed with an internal error",
                        ErrorCode::kInternal);
  }
}

}  // namespace

Registry::Registry(RegistryOptions options, std::shared_ptr<CallLog> log)
    : options_(std::move(options)),
      log_(std::move(log)),
      filters_(std::make_shared<const FilterChain>()),
      generation_(NextGeneration()) {}

Status Registry::Register(std::shared_ptr<const Tool> tool) {
  if (!tool) return Fail(ErrorCode::kInvalidArgument, "null tool");
  std::unique_lock lock(mu_);
  const std::string& name = tool->name();
  if (tools_.contains(name) || aliases_.contains(name)) {
    return Fail(ErrorCode::kAlreadyExists, "a tool named \"" + name + "\" is already registered");
  }
  tools_.emplace(name, std::move(tool));
  generation_ = NextGeneration();
  return {};
}

void Registry::Upsert(std::shared_ptr<const Tool> tool) {
  if (!tool) return;
  std::unique_lock lock(mu_);
  aliases_.erase(tool->name());
  tools_[tool->name()] = std::move(tool);
  generation_ = NextGeneration();
}

bool Registry::Unregister(std::string_view name) {
  std::unique_lock lock(mu_);
  auto it = tools_.find(name);
  if (it == tools_.end()) return false;
  tools_.erase(it);
  generation_ = NextGeneration();
  return true;
}

Status Registry::RegisterAlias(std::string alias, std::string canonical) {
  std::unique_lock lock(mu_);
  if (tools_.contains(alias)) {
    return Fail(ErrorCode::kAlreadyExists, "alias \"" + alias + "\" names a registered tool");
  }
  if (!tools_.contains(canonical)) {
    return Fail(ErrorCode::kNotFound,
                "alias \"" + alias + "\" targets unknown tool \"" + canonical + "\"");
  }
  aliases_[std::move(alias)] = std::move(canonical);
  generation_ = NextGeneration();
  return {};
}

std::shared_ptr<const Tool> Registry::Get(std::string_view name) const {
  std::shared_lock lock(mu_);
  if (auto it = tools_.find(name); it != tools_.end()) return it->second;
  if (auto a = aliases_.find(name); a != aliases_.end()) {
    if (auto it = tools_.find(a->second); it != tools_.end()) return it->second;
  }
  return nullptr;
}

std::string Registry::Canonical(std::string_view name) const {
  std::shared_lock lock(mu_);
  if (tools_.contains(name)) return std::string(name);
  if (auto a = aliases_.find(name); a != aliases_.end() && tools_.contains(a->second))
    return a->second;
  return {};
}

std::vector<std::string> Registry::List() const {
  std::shared_lock lock(mu_);
  std::vector<std::string> names;
  names.reserve(tools_.size());
  for (const auto& [name, _] : tools_) names.push_back(name);
  return names;
}

std::map<std::string, std::string, std::less<>> Registry::Aliases() const {
  std::shared_lock lock(mu_);
  std::map<std::string, std::string, std::less<>> out;
  for (const auto& [alias, canonical] : aliases_) {
    if (tools_.contains(canonical)) out.emplace(alias, canonical);
  }
  return out;
}

std::vector<std::shared_ptr<const Tool>> Registry::Tools() const {
  std::shared_lock lock(mu_);
  std::vector<std::shared_ptr<const Tool>> out;
  out.reserve(tools_.size());
  for (const auto& [_, tool] : tools_) out.push_back(tool);
  return out;
}

size_t Registry::size() const {
  std::shared_lock lock(mu_);
  return tools_.size();
}

uint64_t Registry::generation() const {
  std::shared_lock lock(mu_);
  return generation_;
}

Registry::ToolSet Registry::Snapshot() const {
  std::shared_lock lock(mu_);
  ToolSet out;
  out.generation = generation_;
  out.names.reserve(tools_.size());
  for (const auto& [name, tool] : tools_) {
    out.names.push_back(name);
    if (const std::string& group = tool->dynamic_group(); !group.empty()) {
      out.dynamic_groups[group].push_back(name);
    }
  }
  for (const auto& [alias, canonical] : aliases_) {
    if (tools_.contains(canonical)) out.aliases.emplace(alias, canonical);
  }
  return out;
}

void Registry::AddFilter(std::shared_ptr<CallFilter> filter) {
  std::unique_lock lock(mu_);
  auto next = std::make_shared<FilterChain>(*filters_);
  next->push_back(std::move(filter));
  filters_ = std::move(next);
}

std::unique_ptr<Registry> Registry::Clone() const {
  std::shared_lock lock(mu_);
  auto copy = std::make_unique<Registry>(options_, log_);
  copy->tools_ = tools_;
  copy->aliases_ = aliases_;
  copy->filters_ = filters_;
  copy->generation_ = generation_;
  return copy;
}

CallOutcome Registry::Execute(const CallRequest& request) const {
  const auto start = Clock::now();

  // Step 1: resolve the tool (and snapshot the filter chain) under the shared lock only.
  std::shared_ptr<const Tool> tool;
  std::shared_ptr<const FilterChain> filters;
  std::string canonical;
  {
    std::shared_lock lock(mu_);
    filters = filters_;
    if (auto it = tools_.find(request.tool); it != tools_.end()) {
      tool = it->second;
    } else if (auto a = aliases_.find(request.tool); a != aliases_.end()) {
      if (auto t = tools_.find(a->second); t != tools_.end()) tool = t->second;
    }
  }

  CallOutcome outcome;
  if (!tool) {
    outcome.tool = request.tool;
    outcome.result = Result::Fail("unknown tool: " + request.tool, ErrorCode::kNotFound);
    outcome.duration = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    if (log_)
      log_->Call(CallContext(request, request.tool, {}, {}, {}), request.tool, outcome.result,
                 outcome.duration);
    return outcome;
  }
  outcome.tool = tool->name();

  // Steps 2-5: the immutable per-call context (channel, chat id, peer kind, session/sandbox key,
  // agent, user, workspace, depth, deadline, cancellation).
  const auto timeout = request.timeout.value_or(options_.default_timeout);
  const auto deadline = timeout.count() > 0 ? start + timeout : Clock::time_point::max();
  const CallContext ctx(request, tool->name(),
                        request.workspace.empty() ? options_.workspace : request.workspace,
                        deadline, request.cancel);
  const CallState state{request, ctx, *tool, this};

  // Step 6 and the other request filters (policy, rate limit, ...), in order.
  std::optional<Result> result;
  for (const auto& f : *filters) {
    if ((result = f->OnRequest(state))) break;
  }

  // Step 7: validate the arguments, then execute with exceptions contained.
  if (!result) {
    if (!request.args.is_object()) {
      result = Result::Fail("arguments for tool " + tool->name() + " must be a JSON object, got " +
                            JsonTypeName(request.args));
    } else if (auto guard = EmptyArgsGuard(*tool, request.args)) {
      result = std::move(guard);
    } else if (auto violations = ValidateSchema(tool->parameters(), request.args, "args");
               !violations.empty()) {
      result = Result::Fail("invalid arguments for tool " + tool->name() + ": " +
                            FormatViolations(violations));
    } else if (ctx.cancelled()) {
      result = Result::Fail("tool call cancelled before it started", ErrorCode::kCancelled);
    } else if (Clock::now() >= deadline) {
      result = Result::Fail("tool call deadline exceeded before it started",
                            ErrorCode::kDeadlineExceeded);
    } else {
      result = RunContained(*tool, ctx, request.args);
    }
  }

  // Step 8: result filters (scrubbing) in reverse order, then the call log.
  for (auto it = filters->rbegin(); it != filters->rend(); ++it) (*it)->OnResult(state, *result);
  outcome.result = std::move(*result);
  outcome.duration = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
  if (log_) log_->Call(ctx, outcome.tool, outcome.result, outcome.duration);
  return outcome;
}

}  // namespace clawtools
