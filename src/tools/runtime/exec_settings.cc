#include "tools/runtime/exec_settings.h"

namespace clawtools {

ExecSettings ExecSettingsFrom(const Json& root) {
  ExecSettings s;
  const Json e = root.value(Json::json_pointer("/tools/exec"), Json::object());
  s.host_timeout = std::chrono::seconds(e.value("timeout_sec", 60));
  s.max_output_chars = e.value("max_output_chars", s.max_output_chars);
  s.shell = e.value("shell", s.shell);
  if (e.contains("env"))
    for (const auto& [k, v] : e["env"].items()) s.host_env[k] = v.get<std::string>();
  s.sandbox_tmp_mb = e.value("sandbox_tmp_mb", s.sandbox_tmp_mb);
  s.sandbox_file_mb = e.value("sandbox_file_mb", s.sandbox_file_mb);
  const Json p = e.value("process", Json::object());
  s.process.max_per_session = p.value("max_per_session", s.process.max_per_session);
  s.process.max_total = p.value("max_total", s.process.max_total);
  s.process.buffer_bytes = p.value("buffer_bytes", s.process.buffer_bytes);
  s.process.max_runtime = std::chrono::seconds(p.value("max_runtime_sec", 3600));
  s.process.retain_exited = std::chrono::seconds(p.value("retain_exited_sec", 1800));
  return s;
}

sandbox::SandboxOptions SandboxOptionsFrom(const Json& root, std::string init_helper,
                                           std::vector<std::string> hide_paths) {
  ExecSettings s = ExecSettingsFrom(root);
  sandbox::SandboxOptions o;
  o.native.init_helper = std::move(init_helper);
  o.native.shell = s.shell;
  o.native.tmp_size_mb = s.sandbox_tmp_mb;
  o.native.file_size_mb = s.sandbox_file_mb;
  o.native.hide_paths = std::move(hide_paths);
  o.docker.tmp_size_mb = s.sandbox_tmp_mb;
  // Probe Docker only when some agent asks for it (OpenClaw #73586: mode off still probed).
  auto wants_docker = [](const Json& sb) {
    return sb.is_object() && sb.value("backend", "") == "docker";
  };
  o.probe_docker = wants_docker(root.value(Json::json_pointer("/agents/defaults/sandbox"), Json()));
  for (const auto& a : root.value(Json::json_pointer("/agents/list"), Json::array()))
    o.probe_docker = o.probe_docker || wants_docker(a.value("sandbox", Json()));
  return o;
}

}  // namespace clawtools
