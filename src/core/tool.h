// A tool the model can call. Instances are shared by every thread and every call:
// Execute must be thread-safe and keep all per-call state in the CallContext.
#pragma once

#include <string>

#include "core/call_context.h"
#include "core/json.h"
#include "core/result.h"

namespace clawtools {

class Tool {
 public:
  virtual ~Tool() = default;

  virtual const std::string& name() const = 0;
  virtual const std::string& description() const = 0;
  // JSON Schema of the arguments: {"type":"object","properties":{...},"required":[...]}.
  virtual const Json& parameters() const = 0;

  // Runs the tool. `args` has already been validated against parameters().
  // May throw; the registry turns an exception into an error result.
  virtual Result Execute(const CallContext& ctx, const Json& args) const = 0;

  // The dynamic policy group the tool belongs to ("mcp:<server>" for an MCP bridge tool), or
  // empty. Policy derives group:mcp and group:mcp:<server> from the tools a registry holds, so
  // an agent's cloned registry with servers of its own carries its own groups.
  virtual const std::string& dynamic_group() const {
    static const std::string kNone;
    return kNone;
  }
};

// A Tool whose name, description and schema are fixed at construction.
class SimpleTool : public Tool {
 public:
  SimpleTool(std::string name, std::string description, Json parameters)
      : name_(std::move(name)),
        description_(std::move(description)),
        parameters_(std::move(parameters)) {}

  const std::string& name() const override { return name_; }
  const std::string& description() const override { return description_; }
  const Json& parameters() const override { return parameters_; }

 private:
  std::string name_;
  std::string description_;
  Json parameters_;
};

}  // namespace clawtools
