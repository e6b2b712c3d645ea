#include "scrub/secret_set.h"

#include <algorithm>

namespace clawtools::scrub {
namespace {

std::string Base64(std::string_view in, bool url_safe, bool pad) {
  static constexpr char kStd[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  static constexpr char kUrl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const char* alphabet = url_safe ? kUrl : kStd;
  std::string out;
  size_t i = 0;
  auto byte = [&](size_t k) { return static_cast<unsigned>(static_cast<unsigned char>(in[k])); };
  for (; i + 3 <= in.size(); i += 3) {
    const unsigned v = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(alphabet[(v >> shift) & 63]);
  }
  const size_t rest = in.size() - i;
  if (rest > 0) {
    const unsigned v = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0);
    out.push_back(alphabet[(v >> 18) & 63]);
    out.push_back(alphabet[(v >> 12) & 63]);
    if (rest == 2) out.push_back(alphabet[(v >> 6) & 63]);
    if (pad) out.append(3 - rest, '=');
  }
  return out;
}

std::string PercentEncode(std::string_view in, bool lower_hex) {
  const char* hex = lower_hex ? "0123456789abcdef" : "0123456789ABCDEF";
  std::string out;
  for (char c : in) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(hex[u >> 4]);
      out.push_back(hex[u & 15]);
    }
  }
  return out;
}

}  // namespace

struct SecretSet::Scan {
  const SecretSet* set;
  std::vector<Span>* out;
};

std::shared_ptr<const SecretSet> SecretSet::Build(std::vector<std::string> values) {
  auto set = std::make_shared<SecretSet>();
  std::vector<std::string> literals;
  for (const std::string& v : values) {
    literals.push_back(v);
    for (bool url_safe : {false, true}) {
      for (bool pad : {false, true}) literals.push_back(Base64(v, url_safe, pad));
    }
    literals.push_back(PercentEncode(v, false));
    literals.push_back(PercentEncode(v, true));
  }
  std::sort(literals.begin(), literals.end());
  literals.erase(std::unique(literals.begin(), literals.end()), literals.end());

  std::vector<const char*> exprs;
  std::vector<size_t> lens;
  std::vector<unsigned> flags(literals.size(), 0);
  std::vector<unsigned> ids;
  for (size_t i = 0; i < literals.size(); ++i) {
    exprs.push_back(literals[i].data());
    lens.push_back(literals[i].size());
    ids.push_back(static_cast<unsigned>(i));
  }
  hs_database_t* db = nullptr;
  hs_compile_error_t* error = nullptr;
  if (hs_compile_lit_multi(exprs.data(), flags.data(), ids.data(), lens.data(),
                           static_cast<unsigned>(exprs.size()), HS_MODE_BLOCK, nullptr, &db,
                           &error) != HS_SUCCESS) {
    hs_free_compile_error(error);
    return nullptr;
  }
  set->db_.reset(db);
  set->lengths_ = std::move(lens);
  set->values_ = std::move(values);
  return set;
}

void SecretSet::Find(std::string_view text, std::vector<Span>* out) const {
  if (text.empty() || !db_) return;
  Scan scan{this, out};
  ScanWithThreadScratch(db_.get(), text, &SecretSet::OnHit, &scan);
}

int SecretSet::OnHit(unsigned id, unsigned long long, unsigned long long to, unsigned, void* ctx) {
  auto* scan = static_cast<Scan*>(ctx);
  const size_t end = static_cast<size_t>(to);
  scan->out->push_back({end - scan->set->lengths_[id], end});
  return 0;
}

}  // namespace clawtools::scrub
