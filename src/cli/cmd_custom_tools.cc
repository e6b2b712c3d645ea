// clawtools custom-tools add FILE|- [--agent ID] | list [--agent ID] | show ID | rm ID |
//                        rotate-key --new-key-file FILE
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>

#include "cli/commands.h"
#include "cli/runtime_flags.h"
#include "crypto/aes_gcm.h"
#include "custom_tools/custom_tool_store.h"

namespace clawtools::cli {
namespace {

int Report(const Error& e) {
  std::cerr << "clawtools custom-tools: " << e.log_message() << "\n";
  return e.code == ErrorCode::kInvalidArgument || e.code == ErrorCode::kAlreadyExists ||
                 e.code == ErrorCode::kNotFound
             ? kExitUsage
             : kExitFailure;
}

Expected<std::string> ReadSource(const std::string& path) {
  if (path == "-")
    return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorCode::kNotFound, "cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

int RunCustomTools(const CustomToolsFlags& flags) {
  auto runtime = MakeRuntime(flags.common, LogLevel::kError);
  if (!runtime) return Report(runtime.error());
  const Json& root = (*runtime)->config().root();
  std::string key_file;
  if (auto p = Json::json_pointer("/tools/custom_tools/encryption_key_file"); root.contains(p))
    key_file = root.at(p).get<std::string>();
  auto key = crypto::LoadKey(key_file);
  if (!key) return Report(key.error());
  custom_tools::CustomToolStore store((*runtime)->store(), *key);

  if (flags.action == "list") {
    auto all = store.List();
    if (!all) return Report(all.error());
    Json out = Json::array();
    for (const auto& t : *all)
      if (flags.agent.empty() || t.agent_id == flags.agent)
        out.push_back(custom_tools::DefinitionToJson(t));
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  if (flags.action == "show") {
    auto t = store.Get(flags.arg);
    if (!t) return Report(t.error());
    if (!*t) return Report(MakeError(ErrorCode::kNotFound, "no custom tool " + flags.arg));
    std::cout << custom_tools::DefinitionToJson(**t).dump(2) << "\n";
    return kExitOk;
  }
  if (flags.action == "rm") {
    if (auto st = store.Remove(flags.arg); !st) return Report(st.error());
    std::cout << "removed " << flags.arg << "\n";
    return kExitOk;
  }
  if (flags.action == "rotate-key") {
    auto text = ReadSource(flags.new_key_file);
    if (!text) return Report(text.error());
    auto new_key = crypto::ParseKey(*text);
    if (!new_key) return Report(new_key.error());
    auto n = store.RotateKey(*new_key);
    if (!n) return Report(n.error());
    std::cout << "re-encrypted " << *n
              << " env values; configure the new key before the next start\n";
    return kExitOk;
  }
  // add
  auto text = ReadSource(flags.arg.empty() ? "-" : flags.arg);
  if (!text) return Report(text.error());
  Json j = Json::parse(*text, nullptr, false);
  if (j.is_discarded()) return Report(MakeError(ErrorCode::kInvalidArgument, "not valid JSON"));
  auto def = custom_tools::DefinitionFromJson(j);
  if (!def) return Report(def.error());
  if (!flags.agent.empty()) def->agent_id = flags.agent;
  // Reserved: registered tools that are not themselves stored custom tools.
  auto all = store.List();
  if (!all) return Report(all.error());
  std::set<std::string, std::less<>> custom;
  for (const auto& t : *all) custom.insert(t.name);
  const Registry& registry = (*runtime)->registry();
  auto reserved = [&](std::string_view n) {
    return !custom.contains(n) && registry.Get(n) != nullptr;
  };
  if (auto st = custom_tools::ValidateDefinition(*def, reserved); !st) return Report(st.error());
  auto stored = store.Create(*def);
  if (!stored) return Report(stored.error());
  std::cout << custom_tools::DefinitionToJson(*stored).dump(2) << "\n";
  return kExitOk;
}

}  // namespace clawtools::cli
