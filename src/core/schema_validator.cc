#include "core/schema_validator.h"

#include <re2/re2.h>

#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace clawtools {
namespace {

constexpr size_t kMaxViolations = 32;

// Compiled patterns are cached: schemas are few and long-lived, calls are many.
const RE2* CompiledPattern(const std::string& pattern) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<RE2>, std::less<>> cache;
  std::lock_guard lock(mu);
  auto it = cache.find(pattern);
  if (it != cache.end()) return it->second.get();
  RE2::Options opts;
  opts.set_log_errors(false);
  auto re = std::make_unique<RE2>(pattern, opts);
  const RE2* raw = re->ok() ? re.get() : nullptr;
  if (cache.size() < 4096) cache.emplace(pattern, std::move(re));
  return raw;
}

size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool TypeMatches(const std::string& want, const Json& v) {
  if (want == "object") return v.is_object();
  if (want == "array") return v.is_array();
  if (want == "string") return v.is_string();
  if (want == "boolean") return v.is_boolean();
  if (want == "null") return v.is_null();
  if (want == "number") return v.is_number();
  if (want == "integer") {
    if (v.is_number_integer()) return true;
    if (v.is_number_float()) {
      double d = v.get<double>();
      return std::isfinite(d) && std::floor(d) == d;
    }
    return false;
  }
  return true;  // unknown type names do not constrain
}

std::string Describe(const Json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

class Validator {
 public:
  std::vector<SchemaViolation> out;

  void Add(const std::string& path, std::string msg) {
    if (out.size() < kMaxViolations) out.push_back({path, std::move(msg)});
  }

  bool Valid(const Json& schema, const Json& v) {
    Validator probe;
    probe.Check(schema, v, "");
    return probe.out.empty();
  }

  void Check(const Json& schema, const Json& v, const std::string& path) {
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) Add(path, "no value is allowed here");
      return;
    }
    if (!schema.is_object()) return;

    if (auto it = schema.find("type"); it != schema.end()) {
      bool ok = false;
      std::string names;
      if (it->is_string()) {
        ok = TypeMatches(it->get<std::string>(), v);
        names = it->get<std::string>();
      } else if (it->is_array()) {
        for (const auto& t : *it) {
          if (!t.is_string()) continue;
          ok = ok || TypeMatches(t.get<std::string>(), v);
          names += (names.empty() ? "" : " or ") + t.get<std::string>();
        }
      } else {
        ok = true;
      }
      if (!ok) {
        Add(path, "expected " + names + ", got " + JsonTypeName(v));
        return;  // further keywords would only repeat the type error
      }
    }
    if (auto it = schema.find("enum"); it != schema.end() && it->is_array()) {
      bool found = false;
      for (const auto& e : *it) found = found || e == v;
      if (!found) Add(path, "must be one of " + it->dump() + ", got " + Describe(v));
    }
    if (auto it = schema.find("const"); it != schema.end() && *it != v) {
      Add(path, "must be " + it->dump());
    }
    if (v.is_string()) CheckString(schema, v.get_ref<const std::string&>(), path);
    if (v.is_number()) CheckNumber(schema, v.get<double>(), path);
    if (v.is_array()) CheckArray(schema, v, path);
    if (v.is_object()) CheckObject(schema, v, path);
    CheckCombinators(schema, v, path);
  }

  void CheckString(const Json& schema, const std::string& s, const std::string& path) {
    if (auto it = schema.find("minLength"); it != schema.end() && it->is_number()) {
      if (CodePoints(s) < it->get<double>()) Add(path, "shorter than minLength " + it->dump());
    }
    if (auto it = schema.find("maxLength"); it != schema.end() && it->is_number()) {
      if (CodePoints(s) > it->get<double>()) Add(path, "longer than maxLength " + it->dump());
    }
    if (auto it = schema.find("pattern"); it != schema.end() && it->is_string()) {
      const RE2* re = CompiledPattern(it->get<std::string>());
      if (re && !RE2::PartialMatch(s, *re)) Add(path, "does not match pattern " + it->dump());
    }
  }

  void CheckNumber(const Json& schema, double d, const std::string& path) {
    auto num = [&](const char* key) -> std::optional<double> {
      auto it = schema.find(key);
      if (it == schema.end() || !it->is_number()) return std::nullopt;
      return it->get<double>();
    };
    if (auto m = num("minimum"); m && d < *m) Add(path, "must be >= " + schema["minimum"].dump());
    if (auto m = num("maximum"); m && d > *m) Add(path, "must be <= " + schema["maximum"].dump());
    if (auto m = num("exclusiveMinimum"); m && d <= *m)
      Add(path, "must be > " + schema["exclusiveMinimum"].dump());
    if (auto m = num("exclusiveMaximum"); m && d >= *m)
      Add(path, "must be < " + schema["exclusiveMaximum"].dump());
    if (auto m = num("multipleOf"); m && *m > 0) {
      double q = d / *m;
      if (std::fabs(q - std::round(q)) > 1e-9) Add(path, "must be a multiple of " + schema["multipleOf"].dump());
    }
  }

  void CheckArray(const Json& schema, const Json& v, const std::string& path) {
    if (auto it = schema.find("minItems"); it != schema.end() && it->is_number() &&
                                           v.size() < it->get<double>())
      Add(path, "needs at least " + it->dump() + " items");
    if (auto it = schema.find("maxItems"); it != schema.end() && it->is_number() &&
                                           v.size() > it->get<double>())
      Add(path, "allows at most " + it->dump() + " items");
    if (auto it = schema.find("uniqueItems"); it != schema.end() && it->is_boolean() &&
                                              it->get<bool>()) {
      std::set<std::string> seen;
      for (const auto& e : v) {
        if (!seen.insert(e.dump()).second) {
          Add(path, "items must be unique");
          break;
        }
      }
    }
    if (auto it = schema.find("items"); it != schema.end() && (it->is_object() || it->is_boolean())) {
      for (size_t i = 0; i < v.size(); ++i) Check(*it, v[i], path + "[" + std::to_string(i) + "]");
    }
  }

  void CheckObject(const Json& schema, const Json& v, const std::string& path) {
    auto prefix = path.empty() ? std::string() : path + ".";
    if (auto it = schema.find("required"); it != schema.end() && it->is_array()) {
      for (const auto& r : *it) {
        if (r.is_string() && !v.contains(r.get<std::string>()))
          Add(prefix + r.get<std::string>(), "required property missing");
      }
    }
    const Json* props = nullptr;
    if (auto it = schema.find("properties"); it != schema.end() && it->is_object()) props = &*it;
    auto additional = schema.find("additionalProperties");
    for (auto el = v.begin(); el != v.end(); ++el) {
      const std::string child = prefix + el.key();
      if (props) {
        if (auto p = props->find(el.key()); p != props->end()) {
          Check(*p, el.value(), child);
          continue;
        }
      }
      if (additional != schema.end()) {
        if (additional->is_boolean()) {
          if (!additional->get<bool>()) Add(child, "unknown key");
        } else {
          Check(*additional, el.value(), child);
        }
      }
    }
  }

  void CheckCombinators(const Json& schema, const Json& v, const std::string& path) {
    if (auto it = schema.find("allOf"); it != schema.end() && it->is_array()) {
      for (const auto& s : *it) Check(s, v, path);
    }
    if (auto it = schema.find("anyOf"); it != schema.end() && it->is_array()) {
      bool any = false;
      for (const auto& s : *it) any = any || Valid(s, v);
      if (!any) Add(path, "matches none of the allowed forms (anyOf)");
    }
    if (auto it = schema.find("oneOf"); it != schema.end() && it->is_array()) {
      int n = 0;
      for (const auto& s : *it) n += Valid(s, v);
      if (n != 1) Add(path, n == 0 ? "matches none of the allowed forms (oneOf)"
                                   : "matches more than one form (oneOf)");
    }
    if (auto it = schema.find("not"); it != schema.end() && Valid(*it, v)) {
      Add(path, "matches a form that is not allowed (not)");
    }
  }
};

}  // namespace

std::string JsonTypeName(const Json& v) {
  switch (v.type()) {
    case Json::value_t::object: return "object";
    case Json::value_t::array: return "array";
    case Json::value_t::string: return "string";
    case Json::value_t::boolean: return "boolean";
    case Json::value_t::null: return "null";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "integer";
    case Json::value_t::number_float: return "number";
    default: return "unknown";
  }
}

std::vector<SchemaViolation> ValidateSchema(const Json& schema, const Json& value,
                                            std::string_view root_name) {
  Validator v;
  v.Check(schema, value, std::string(root_name));
  return std::move(v.out);
}

std::string FormatViolations(const std::vector<SchemaViolation>& violations) {
  std::string s;
  for (const auto& v : violations) {
    if (!s.empty()) s += "; ";
    s += v.path + ": " + v.message;
  }
  return s;
}

}  // namespace clawtools
