// process: background commands for the session that starts them.
//
//   start  {command, working_dir?}   same gate, routing and sandbox as exec; returns an id
//   list                             this session's processes
//   poll   {id, offset?, max_bytes?} output from an absolute byte offset (default 0) and the
//                                    next offset to ask for; says when bytes scrolled out
//   write  {id, data, eof?}          to stdin; eof closes it
//   signal {id, signal}              TERM INT HUP QUIT KILL USR1 USR2 STOP CONT, to the group
//   kill   {id}                      SIGKILL to the whole group
//   remove {id}                      kill if running, then forget
// Processes are owned by (session key, id): another session cannot see or touch them.
#pragma once

#include <memory>

#include "core/tool.h"
#include "tools/runtime/command_launcher.h"
#include "tools/runtime/process_registry.h"

namespace clawtools {

class ProcessTool : public SimpleTool {
 public:
  ProcessTool(std::shared_ptr<const CommandLauncher> launcher,
              std::shared_ptr<ProcessRegistry> registry);
  Result Execute(const CallContext& ctx, const Json& args) const override;

 private:
  std::shared_ptr<const CommandLauncher> launcher_;
  std::shared_ptr<ProcessRegistry> registry_;
};

}  // namespace clawtools
